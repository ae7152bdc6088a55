import { plural } from "./break-findings.js";
import type { Finding, FindingInput } from "./finding.js";
import { excerptOf, firstAppearances } from "./first-appearances.js";

// A line that opens a turn of a pasted conversation: "USER: …", "Assistant: …", "TOOL (search): …".
const turnMarker = /^(user|assistant|system|tool|human|ai|model|bot)(\s*\([^)\n]*\))?\s*:/gim;

/** Roles named by turn markers at line starts, if the text reads as a flattened conversation. */
function flattenedRoles(text: string): string[] | undefined {
  const roles = new Set<string>();
  let markers = 0;
  for (const match of text.matchAll(turnMarker)) {
    markers++;
    roles.add(match[1]!.toLowerCase());
    if (markers >= 4 && roles.size >= 2) break;
  }
  // One "User:" line can be a quote; two different speakers taking turns is a transcript.
  return markers >= 2 && roles.size >= 2 ? [...roles] : undefined;
}

/** The history pasted into one message as "USER: … ASSISTANT: …" text instead of sent as messages. */
export function detectFlattenedHistory(input: FindingInput): Finding | undefined {
  const found = firstAppearances(input).flatMap((appearance) => {
    const { message } = appearance;
    if (message.role !== "user" && message.role !== "system") return [];
    const roles = flattenedRoles(message.content);
    return roles === undefined ? [] : [{ call: appearance.call, index: appearance.index, text: message.content, roles }];
  });
  if (found.length === 0) return undefined;
  const first = found[0]!;
  return {
    code: "flattened_history",
    severity: found.length >= 2 ? "high" : "medium",
    message:
      `${plural(found.length, "message")} hold${found.length === 1 ? "s" : ""} a conversation flattened into text (call ${first.call}, message ${first.index}: ` +
      `${JSON.stringify(excerptOf(first.text, 80))}). A flattened history is rebuilt as a new message each call, so nothing of it is ` +
      "reused from the cache, and the model loses the structure it was trained on (roles, tool calls). Send the turns as separate user, " +
      "assistant and tool messages.",
    calls: [...new Set(found.map((item) => item.call))],
    evidence: { messages: found.length, roles: first.roles, examples: found.slice(0, 3).map((item) => ({ call: item.call, index: item.index, excerpt: excerptOf(item.text) })) },
  };
}
