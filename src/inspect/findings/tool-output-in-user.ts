import { plural } from "./break-findings.js";
import type { Finding, FindingInput } from "./finding.js";
import { excerptOf, firstAppearances } from "./first-appearances.js";

// mini-swe-agent's observations and the ReAct "Observation:" convention.
const toolOutputPattern = /^\s*(<returncode>|<output>|<output_head>|observation:|tool (result|output)\b)/i;

/** Tool output sent as user messages instead of `tool` messages answering a tool call. */
export function detectToolOutputInUser(input: FindingInput): Finding | undefined {
  const appearances = firstAppearances(input);
  const found = appearances.flatMap(({ call, index, message }) =>
    message.role === "user" && (message.meta.origin === "tool" || toolOutputPattern.test(message.content)) ? [{ call, index, text: message.content }] : [],
  );
  if (found.length === 0) return undefined;
  const users = appearances.filter(({ message }) => message.role === "user").length;
  const first = found[0]!;
  return {
    code: "tool_output_in_user_messages",
    severity: "medium",
    message:
      `${plural(found.length, "tool output")} (of ${plural(users, "user message")}) were sent as user messages (first at call ${first.call}: ` +
      `${JSON.stringify(excerptOf(first.text, 60))}). The model cannot tell a command's output from its user's instructions ` +
      "(text inside the output reads as an order: prompt injection), and the harness cannot clear or compress old tool results by role. " +
      "Use native tool calls and send results as tool messages with their tool_call_id.",
    calls: [...new Set(found.map((item) => item.call))],
    evidence: { toolOutputsInUserMessages: found.length, userMessages: users, example: { call: first.call, index: first.index, excerpt: excerptOf(first.text) } },
  };
}
