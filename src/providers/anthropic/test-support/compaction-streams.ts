import { readFileSync } from "node:fs";
import type { ScriptedHttpResponse } from "../../../testing/loopback-server.js";

// vercel/ai's recorded compaction stream (packages/anthropic/src/__fixtures__/anthropic-compaction.1.chunks.txt,
// claude-opus-4-6, snapshot ed857f50, see server-context-management.test.ts): a `compaction` block sent
// as one compaction_delta, then the answer; usage.iterations bills the summarising pass (60 385 in,
// 522 out) beside the answer's (612 in, 2 819 out). The other responses are cut from it:
// - `answerOnly`: the recording's answer block alone (re-indexed to 0), a 58 000-token prompt, no iterations;
// - `paused`: the recording up to the compaction block's stop with `stop_reason: "compaction"`, billing
//   only the compaction pass (the shape of the compaction guide's `pause_after_compaction` response).
const lines = readFileSync(new URL("./anthropic-compaction.chunks.txt", import.meta.url), "utf8").split("\n").filter((line) => line.trim() !== "");

/** Events as the API streams them: `event: <type>` and the recorded data line. */
export function anthropicSse(events: string[]): ScriptedHttpResponse {
  return { headers: { "content-type": "text/event-stream" }, chunks: events.map((line) => `event: ${(JSON.parse(line) as { type: string }).type}\ndata: ${line}\n\n`) };
}

const blockStop = lines.indexOf('{"type":"content_block_stop","index":0}');
const messageDelta = lines.find((line) => line.startsWith('{"type":"message_delta"'))!;
const compactionPass = JSON.stringify((JSON.parse(messageDelta) as { usage: { iterations: unknown[] } }).usage.iterations[0]);

export const recordedCompaction = anthropicSse(lines);

/** The recording's answer block alone, billed as a prompt of `inputTokens` and no compaction pass. */
export function answerWithPrompt(inputTokens: number): ScriptedHttpResponse {
  return anthropicSse([
    lines[0]!.replace('"input_tokens":60385', `"input_tokens":${inputTokens}`),
    ...lines.slice(blockStop + 1, -2).map((line) => line.replace('"index":1', '"index":0')),
    messageDelta.replace('"input_tokens":612', `"input_tokens":${inputTokens}`).replace(/"iterations":\[.*\]\}/, '"iterations":[]}'),
    '{"type":"message_stop"}',
  ]);
}

export const answerOnly = answerWithPrompt(58_000);

export const paused = anthropicSse([
  ...lines.slice(0, blockStop + 1),
  messageDelta
    .replace('"stop_reason":"end_turn"', '"stop_reason":"compaction"')
    .replace('"input_tokens":612', '"input_tokens":0')
    .replace('"output_tokens":2819', '"output_tokens":0')
    .replace(/"iterations":\[.*\]\}/, `"iterations":[${compactionPass}]}`),
  '{"type":"message_stop"}',
]);

const summary = lines
  .map((line) => JSON.parse(line) as { delta?: { type: string; content?: string } })
  .filter((event) => event.delta?.type === "compaction_delta")
  .map((event) => event.delta!.content!)
  .join("");

/** The compaction block as ctxkit keeps it and sends it back: the recorded block, byte for byte. */
export const compactionBlock = JSON.stringify({ type: "compaction", content: summary });
