import { thinkingOf, toolCallsOf } from "../../types/index.js";
import { plural } from "./break-findings.js";
import type { Finding, FindingInput } from "./finding.js";

// DeepSeek (V3.1+ thinking), Kimi K2 and GLM reject tool-loop requests whose assistant turns lack
// their `reasoning_content` (HTTP 400); Anthropic rejects a tool loop whose thinking blocks were
// removed or changed. DeepSeek R1 was the opposite (it wanted reasoning stripped), so it is excluded.
const requiresReasoning = /deepseek(?!.*r1)|kimi|moonshot|glm|zhipu|claude|anthropic/i;

/** Reasoning of tool-calling turns that the next request no longer carries, for vendors that require it. */
export function detectReasoningDropped(input: FindingInput): Finding | undefined {
  const model = input.transcript.model;
  if (model === undefined || !requiresReasoning.test(model)) return undefined;
  const dropped: number[] = [];
  const { calls } = input.transcript;
  calls.forEach((call, index) => {
    const response = call.response;
    const next = calls[index + 1];
    if (response === undefined || next === undefined) return;
    if (toolCallsOf(response).length === 0 || thinkingOf(response).every((part) => part.thinking === "" && part.redactedData === undefined)) return;
    const replayed = next.request.messages[call.request.messages.length];
    if (replayed?.role !== "assistant") return;
    if (thinkingOf(replayed).length === 0) dropped.push(index + 1);
  });
  if (dropped.length === 0) return undefined;
  return {
    code: "reasoning_dropped",
    severity: "high",
    message:
      `The reasoning of ${plural(dropped.length, "tool-calling turn")} was dropped from the next request (first at call ${dropped[0]}). ${model} requires ` +
      "it to be sent back unchanged inside a tool loop (DeepSeek, Kimi and GLM answer 400 without reasoning_content; Anthropic rejects " +
      "altered thinking blocks), and removing it changes an already-sent message, which breaks the cache. Keep reasoning (with its signature) in the history.",
    calls: dropped,
    evidence: { turns: dropped.length, model },
  };
}
