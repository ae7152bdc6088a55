import { describe, expect, it } from "vitest";
import { durableWorkerTimings } from "./durable-worker-timings.js";

describe("a durable worker's heartbeat and watchdog", () => {
  it("beats well within a short staleAfterMs (ctxkit worker --stale-after 1), so no live worker looks dead", () => {
    const timings = durableWorkerTimings({ staleAfterMs: 1_000 });
    expect(timings.heartbeatMs * 2).toBeLessThanOrEqual(timings.staleAfterMs);
    expect(durableWorkerTimings({ staleAfterMs: 3_000 }).heartbeatMs).toBe(1_000);
  });

  it("beats every 2 s and looks every third of staleAfterMs by default", () => {
    expect(durableWorkerTimings({})).toEqual({ heartbeatMs: 2_000, staleAfterMs: 15_000, watchdogMs: 5_000 });
  });

  it("refuses a heartbeat that would make a live worker look stale, and delays no timer or integer column holds", () => {
    expect(() => durableWorkerTimings({ staleAfterMs: 1_000, heartbeatMs: 2_000 })).toThrow(expect.objectContaining({ code: "option_invalid", message: expect.stringContaining("must be at least twice heartbeatMs") }));
    for (const staleAfterMs of [0, -1, Number.NaN, 2 ** 31, 7_000_000_000]) {
      expect(() => durableWorkerTimings({ staleAfterMs })).toThrow(expect.objectContaining({ code: "option_invalid", message: expect.stringContaining("staleAfterMs must be a number of milliseconds") }));
    }
  });
});
