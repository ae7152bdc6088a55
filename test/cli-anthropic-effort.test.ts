import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { answerOnly, answerWithPrompt } from "../src/providers/anthropic/test-support/compaction-streams.js";
import { startLoopbackServer, type LoopbackServer } from "../src/testing/loopback-server.js";
import { runCli } from "./run-cli.js";
import { sessionRecords } from "./session-records.js";

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const anthropic = (url: string) => ["--provider", "anthropic", "--api-key", "k", "--base-url", url, "--model", "claude-opus-4-6", "--status-bar", "off"];

async function requestEfforts(cwd: string): Promise<unknown[]> {
  return (await sessionRecords(cwd)).filter((record) => record.type === "request").map((record) => record.effort);
}

describe("--reasoning-effort with --provider anthropic", () => {
  it("sends output_config.effort, records it per call, and a resumed session rebuilds the same bytes", async () => {
    server = await startLoopbackServer([answerOnly]);
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-anthropic-effort-"));
    const run = await runCli(["run", ...anthropic(server.url), "--reasoning-effort", "low", "Summarise the testing section."], { cwd });
    expect(run.code).toBe(0);
    expect(run.stderr).not.toContain("ignores it");
    expect(JSON.parse(server.requests[0]!.body)).toMatchObject({ output_config: { effort: "low" } });
    expect(await requestEfforts(cwd)).toEqual(["low"]);

    // Resumed without the flag: the last request is rebuilt with the effort it was sent with and checked byte for byte.
    const resumed = await runCli(["chat", ...anthropic(server.url), "--continue"], { cwd, input: ["/exit"] });
    expect(resumed.stderr).toBe("");
    expect(resumed.code).toBe(0);
  });

  it("sends no output_config without an effort, and records the model's default", async () => {
    server = await startLoopbackServer([answerOnly]);
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-anthropic-no-effort-"));
    const run = await runCli(["run", ...anthropic(server.url), "Summarise the testing section."], { cwd });
    expect(run.code).toBe(0);
    expect(server.requests[0]!.body).not.toContain("output_config");
    expect(await requestEfforts(cwd)).toEqual(["default"]);
  });

  it.each([
    ["anthropic", "minimal", "low, medium, high, xhigh, max"],
    ["openai-responses", "max", "none, minimal, low, medium, high, xhigh"],
  ])("refuses with --provider %s an effort of another provider's (%s) as a usage error naming its own", async (provider, effort, values) => {
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-effort-refused-"));
    const run = await runCli(["run", "--provider", provider, "--api-key", "k", "--model", "m", "--reasoning-effort", effort, "hi"], { cwd });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`--reasoning-effort '${effort}' is not a reasoning effort of --provider ${provider}. Use one of: ${values}.`);
  });

  it("names the variable when CTXKIT_REASONING_EFFORT holds an effort the provider does not take", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-effort-variable-"));
    const run = await runCli(["run", "--provider", "anthropic", "--api-key", "k", "--model", "m", "hi"], { cwd, env: { CTXKIT_REASONING_EFFORT: "none" } });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("CTXKIT_REASONING_EFFORT: 'none' is not a reasoning effort of --provider anthropic. Use one of: low, medium, high, xhigh, max.");
  });

  it("names the config file when it holds an effort the provider does not take", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-effort-file-"));
    await writeFile(join(cwd, "ctxkit.config.json"), JSON.stringify({ reasoningEffort: "minimal" }));
    const run = await runCli(["run", "--provider", "anthropic", "--api-key", "k", "--model", "m", "hi"], { cwd });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`${join(cwd, "ctxkit.config.json")}: 'reasoningEffort' 'minimal' is not a reasoning effort of --provider anthropic. Use one of: low, medium, high, xhigh, max.`);
  });

  it("still says a provider that sends no effort ignores it", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-effort-ignored-"));
    const run = await runCli(["config", "--vendor", "vllm", "--base-url", "http://127.0.0.1:9/v1", "--model", "m", "--reasoning-effort", "high"], { cwd });
    expect(run.stderr).toContain("--reasoning-effort high applies to --provider openai-responses and anthropic only; --provider openai-compatible ignores it.");
  });
});

describe("chat's /effort with --provider anthropic", () => {
  it("lists Anthropic's efforts, refuses OpenAI's, and sends the chosen one from the next call, naming the miss", async () => {
    server = await startLoopbackServer([answerWithPrompt(4300), answerWithPrompt(4400)]);
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-chat-anthropic-effort-"));
    const run = await runCli(["chat", ...anthropic(server.url)], {
      cwd,
      input: [
        "/effort",
        { line: "/effort minimal", waitFor: "reasoning effort: default" },
        { line: "Summarise the testing section.", waitFor: "Unknown effort" },
        { line: "/effort max", waitFor: "Session" },
        { line: "And the unit tests?", waitFor: "from the next call" },
        { line: "/usage", waitFor: "Session" },
        { line: "/exit", waitFor: "cache misses" },
      ],
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("reasoning effort: default (one of low, medium, high, xhigh, max)");
    expect(run.stdout).toContain("Unknown effort minimal. Use one of: low, medium, high, xhigh, max.");
    expect(server.requests).toHaveLength(2);
    expect(server.requests[0]!.body).not.toContain("output_config");
    expect(JSON.parse(server.requests[1]!.body)).toMatchObject({ output_config: { effort: "max" } });
    expect(await requestEfforts(cwd)).toEqual(["default", "max"]);
    expect(run.stdout).toMatch(/call 2: reasoning effort changed \(default → max\)/);
    expect(run.stderr).not.toContain("Undeclared");
  });
});
