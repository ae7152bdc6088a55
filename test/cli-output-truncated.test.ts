import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startLoopbackServer, type LoopbackServer } from "../src/testing/loopback-server.js";
import { runCli } from "./run-cli.js";

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const chunk = (delta: unknown, finishReason: string | null = null) =>
  `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", model: "m", choices: [{ index: 0, delta, finish_reason: finishReason }] })}\n\n`;

// The loop's warning advises a program (maxOutputTokens); at the command line it printed that key,
// not the flag that sets it.
describe("ctxkit run: an answer cut at the output token limit", () => {
  it("warns with the flag, --max-output-tokens", async () => {
    server = await startLoopbackServer([{ headers: { "content-type": "text/event-stream" }, chunks: [chunk({ content: "The first half" }), chunk({}, "length"), "data: [DONE]\n\n"] }]);
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-output-truncated-"));
    const run = await runCli(["run", "--base-url", `${server.url}/v1`, "--model", "m", "--api-key", "k", "--max-output-tokens", "5", "explain"], { cwd });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("warning: The model's answer was cut at the output token limit; raise --max-output-tokens for a complete answer.");
    expect(run.stderr).not.toContain("maxOutputTokens");
  });
});
