import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startLoopbackServer, type LoopbackServer, type ScriptedHttpResponse } from "../src/testing/loopback-server.js";
import { runCli } from "./run-cli.js";

// llama-server's gpt-oss answer that calls run_command after reasoning "We need to run date command."
// (see src/providers/openai-compatible/fixtures/README.md for what is recorded and what is reconstructed).
const toolCallStream = await readFile(new URL("../src/providers/openai-compatible/fixtures/llamacpp-gpt-oss-tool-call-stream.sse", import.meta.url), "utf8");
const toolCallTurn: ScriptedHttpResponse = { headers: { "content-type": "text/event-stream" }, chunks: toolCallStream.split("\n\n").filter((event) => event.trim() !== "").map((event) => `${event}\n\n`) };
const answerTurn: ScriptedHttpResponse = {
  headers: { "content-type": "text/event-stream" },
  chunks: ['data: {"choices":[{"finish_reason":"stop","index":0,"delta":{"content":"It is 19:35."}}],"object":"chat.completion.chunk"}\n\n', "data: [DONE]\n\n"],
};

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function assistantTurnSent(args: string[], config?: object): Promise<Record<string, unknown>> {
  server = await startLoopbackServer([toolCallTurn, answerTurn]);
  const cwd = await mkdtemp(join(tmpdir(), "ctxkit-reasoning-"));
  if (config) await writeFile(join(cwd, "ctxkit.config.json"), JSON.stringify(config));
  const run = await runCli(["run", "--vendor", "llamacpp", "--base-url", `${server.url}/v1`, "--status-bar", "off", ...args, "please check the time"], { cwd });
  expect(run.code).toBe(0);
  const body = JSON.parse(server.requests[1]!.body) as { messages: Array<Record<string, unknown>> };
  return body.messages.find((message) => message.role === "assistant")!;
}

describe("reasoning_content on llama.cpp, by model and by setting", () => {
  it("ctxkit run with a gpt-oss model sends the tool-calling turn's reasoning back", async () => {
    const sent = await assistantTurnSent(["--model", "gpt-oss-20b"]);
    expect(sent).toMatchObject({ reasoning_content: "We need to run date command.", tool_calls: [{ id: "rYFP", function: { name: "run_command", arguments: '{"command":"date"}' } }] });
  });

  it("--reasoning-round-trip strip overrides the gpt-oss rule; a config file's 'send' turns it on for another model", async () => {
    expect(await assistantTurnSent(["--model", "gpt-oss-20b", "--reasoning-round-trip", "strip"])).not.toHaveProperty("reasoning_content");
    await server?.close();
    expect(await assistantTurnSent(["--model", "qwen3-8b"])).not.toHaveProperty("reasoning_content");
    await server?.close();
    expect(await assistantTurnSent(["--model", "qwen3-8b"], { reasoningRoundTrip: "send" })).toHaveProperty("reasoning_content", "We need to run date command.");
  });

  it("refuses an unknown mode, naming the choices", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-reasoning-"));
    const run = await runCli(["run", "--vendor", "llamacpp", "--model", "gpt-oss-20b", "--reasoning-round-trip", "always", "hi"], { cwd });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/reasoning round-trip.*always.*send, tool-calls, strip/);
  });
});
