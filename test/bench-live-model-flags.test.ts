import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseCommandLine } from "../src/cli/cli-options.js";
import { injectionBenchOptions } from "../src/cli/commands/bench/injection-bench-command.js";
import { statusBarBenchOptions } from "../src/cli/commands/bench/status-bar-bench-command.js";
import { tauRunOptions } from "../src/cli/commands/bench/tau-run-command.js";
import { runCli } from "./run-cli.js";

// The benchmarks that talk to a live model read its settings through resolveConfig as a run does:
// a slow local model needs --request-timeout, a reasoning model --reasoning-effort, a GGUF --model-path.
const liveFlags = ["--model", "m", "--base-url", "http://127.0.0.1:9/v1", "--request-timeout", "300", "--idle-timeout", "120", "--reasoning-effort", "low", "--model-path", "/tmp/m.gguf", "--context-window", "32000", "--workspace", "/tmp"];

describe("benchmarks against a live model take run's model flags", () => {
  it.each([
    ["bench tau run", tauRunOptions],
    ["bench injection", injectionBenchOptions],
    ["bench status-bar", statusBarBenchOptions],
  ])("%s", (_name, options) => {
    const { flags } = parseCommandLine(liveFlags, options);
    expect(flags).toMatchObject({ model: "m", "request-timeout": "300", "idle-timeout": "120", "reasoning-effort": "low", "model-path": "/tmp/m.gguf", "context-window": "32000", workspace: "/tmp" });
  });
});

describe("a live benchmark checks run's model flags as a run does", () => {
  it("bench injection --context-window abc is refused naming the flag, before any model is called", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-bench-live-"));
    const run = await runCli(["bench", "injection", "--model", "m", "--base-url", "http://127.0.0.1:9/v1", "--context-window", "abc"], { cwd });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/--context-window/);
  });
});
