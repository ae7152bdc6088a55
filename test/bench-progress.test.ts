import { existsSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runCli } from "./run-cli.js";
import { runInPty, type PtySession } from "./run-pty.js";

// Long benchmarks show a progress bar (counts, percentage, ETA) on a terminal's stderr, and nothing when piped.
const corpus = resolve("../shared/corpus");
let pty: PtySession | undefined;
afterEach(() => {
  pty?.kill();
  pty = undefined;
});

describe("benchmark progress bars", { timeout: 240_000 }, () => {
  it("shows one for bench status-bar --offline on a terminal, and per-run lines instead when piped", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-bench-progress-"));
    pty = runInPty(["bench", "status-bar", "--offline", "--repeats", "1"], { cwd });
    expect(await pty.exited).toBe(0);
    expect(pty.screen).toMatch(/status-bar: runs \[[^\]]*\] \d+\/\d+ \| \d+% \| ETA/);
    const piped = await runCli(["bench", "status-bar", "--offline", "--repeats", "1"], { cwd, timeoutMs: 180_000 });
    expect(piped.code).toBe(0);
    expect(piped.stderr).not.toContain("status-bar: runs [");
    expect(piped.stderr).toMatch(/: (success|failure) \(/);
  });

  it.skipIf(!existsSync(join(corpus, "tau-bench")))("shows one for bench kv-cache on a terminal, and nothing when piped", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-bench-progress-"));
    const args = ["bench", "kv-cache", "--limit", "3", "--corpus", corpus, "--out", join(cwd, "kv.json")];
    pty = runInPty(args, { cwd });
    expect(await pty.exited).toBe(0);
    expect(pty.screen).toMatch(/kv-cache: dialogues \[[^\]]*\] \d\/3 \| \d+% \| ETA/);
    const piped = await runCli(args, { cwd, timeoutMs: 180_000 });
    expect(piped.code).toBe(0);
    expect(piped.stderr).not.toContain("kv-cache: dialogues");
  });

  it.skipIf(!existsSync(join(corpus, "swe-gemini")))("shows one for bench status-bar --cost on a terminal", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-bench-progress-"));
    pty = runInPty(["bench", "status-bar", "--cost", "--limit", "3", "--corpus", corpus, "--out", join(cwd, "cost.json")], { cwd });
    expect(await pty.exited).toBe(0);
    expect(pty.screen).toMatch(/status-bar cost [\w-]+: runs \[[^\]]*\] \d\/\d \| \d+% \| ETA/);
  });
});
