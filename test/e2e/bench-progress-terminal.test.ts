import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runInPty, type PtySession } from "../run-pty.js";

// The in-process tests (test/bench-progress.test.ts) give the CLI streams that say they are a
// terminal; this one checks the binary finds a real pseudo-terminal one and draws the bar there.
let pty: PtySession | undefined;
afterEach(() => {
  pty?.kill();
  pty = undefined;
});

describe("benchmark progress bars on a pseudo-terminal", () => {
  it("shows one for bench status-bar --offline", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-bench-progress-"));
    pty = runInPty(["bench", "status-bar", "--offline", "--repeats", "1"], { cwd });
    expect(await pty.exited).toBe(0);
    expect(pty.screen).toMatch(/status-bar: runs \[[^\]]*\] \d+\/\d+ \| \d+% \| ETA/);
  }, 240_000);
});
