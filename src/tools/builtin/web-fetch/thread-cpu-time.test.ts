import { describe, expect, it } from "vitest";
import { ownThreadCpuClock, readThreadCpuMs } from "./thread-cpu-time.js";

describe.runIf(process.platform === "linux")("a thread's processor time", () => {
  it("is found for the calling thread, grows while it computes and stays flat while it sleeps", () => {
    const clock = ownThreadCpuClock();
    expect(clock).toMatch(/^\/proc\/\d+\/task\/\d+\/schedstat$/);
    const start = readThreadCpuMs(clock!)!;
    // Compute until the clock has moved 50 ms (bounded): on a loaded machine the wall clock runs ahead of it.
    const giveUpAt = Date.now() + 20_000;
    let computed = 0;
    while (Date.now() < giveUpAt && computed < 50) computed = readThreadCpuMs(clock!)! - start;
    expect(computed).toBeGreaterThanOrEqual(50);
    const beforeSleep = readThreadCpuMs(clock!)!;
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300);
    expect(readThreadCpuMs(clock!)! - beforeSleep).toBeLessThan(50);
  });

  it("reads as unknown once the thread is gone", () => {
    expect(readThreadCpuMs(`/proc/${process.pid}/task/999999999/schedstat`)).toBeUndefined();
  });
});
