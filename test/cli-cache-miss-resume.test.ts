import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startLoopbackServer, type LoopbackServer } from "../src/testing/loopback-server.js";
import { recordedResponsesAnswer } from "../src/providers/openai-responses/test-support/recorded-answer.js";
import { runCli } from "./run-cli.js";

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const responses = (url: string, model = "gpt-5.1-codex-max") => ["--provider", "openai-responses", "--base-url", url, "--model", model, "--status-bar", "off"];

/** A chat on the Responses API that set `/effort high` and sent one message (4 300 prompt tokens), then exited. */
async function chatAtHighEffort(cwd: string, url: string): Promise<void> {
  const first = await runCli(["chat", ...responses(url)], {
    cwd,
    input: [{ line: "/effort high", waitFor: "" }, "Compute (12 + 7) × 3 × 10.", { line: "/exit", waitFor: "570" }],
  });
  expect(first.code).toBe(0);
}

// The first call after --continue is compared with the session's last recorded call (its time,
// model, effort, prompt tokens and cache lifetime), so its miss is named as live as any other.
describe("the first call after a resume names its cache miss", () => {
  it("in chat's /usage: the effort changed across the resume (high → medium)", async () => {
    server = await startLoopbackServer([recordedResponsesAnswer(4300), recordedResponsesAnswer(4500)]);
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-resume-miss-"));
    await chatAtHighEffort(cwd, server.url);
    const resumed = await runCli(["chat", ...responses(server.url), "--continue", "--reasoning-effort", "medium"], {
      cwd,
      input: ["And again.", { line: "/usage", waitFor: "570" }, { line: "/exit", waitFor: "cache misses" }],
    });
    expect(resumed.code).toBe(0);
    expect(JSON.parse(server.requests[1]!.body)).toMatchObject({ reasoning: { effort: "medium" } });
    // The 4,300 tokens the last call before the exit sent, none of them read from the cache.
    expect(resumed.stdout).toContain("cache misses: 1,");
    expect(resumed.stdout).toMatch(/call 1: reasoning effort changed \(high → medium\): 4,300 tokens re-billed/);
  });

  it("in the run's events: the model changed across the resume", async () => {
    server = await startLoopbackServer([recordedResponsesAnswer(4300), recordedResponsesAnswer(4500)]);
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-resume-model-"));
    await chatAtHighEffort(cwd, server.url);
    const run = await runCli(["run", ...responses(server.url, "gpt-5.1"), "--continue", "--json", "And again."], { cwd });
    expect(run.code).toBe(0);
    const events = run.stdout.split("\n").filter((line) => line.startsWith("{")).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(events.find((event) => event.type === "cache_miss")).toMatchObject({ missedTokens: 4300, cause: { kind: "model_changed", from: "gpt-5.1-codex-max", to: "gpt-5.1" } });
  });
});
