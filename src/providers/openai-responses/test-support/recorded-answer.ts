import { readFile } from "node:fs/promises";
import type { ScriptedHttpResponse } from "../../../testing/loopback-server.js";

// The answer turn of a real recorded gpt-5.1-codex-max Responses stream (vercel/ai fixture; see
// ../fixtures/README.md): the events from its last `response.created` on.
const recorded = (await readFile(new URL("../fixtures/gpt-5.1-codex-max-reasoning-tool-loop.jsonl", import.meta.url), "utf8")).split("\n").filter((line) => line.trim() !== "");
const lastResponse = recorded.slice(recorded.map((line, index) => (line.startsWith('{"type":"response.created"') ? index : -1)).filter((index) => index >= 0).at(-1));

/** That recorded answer as an SSE response, its prompt scaled to `inputTokens` with none cached. */
export function recordedResponsesAnswer(inputTokens: number): ScriptedHttpResponse {
  return {
    headers: { "content-type": "text/event-stream" },
    chunks: lastResponse.map((line) => `event: ${(JSON.parse(line) as { type: string }).type}\ndata: ${line.replace(/"input_tokens":\d+/, `"input_tokens":${inputTokens}`)}\n\n`),
  };
}
