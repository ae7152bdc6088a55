import type { ContextPolicy } from "../context/context-policy.js";
import { capToolOutput, defaultMaxToolResultCharacters } from "./cap-tool-output.js";

export const toolOutputCapPolicyName = "tool-output-cap";

/**
 * The backstop for tools that do not page their output: a result longer than `maxCharacters`
 * (default 1 000 000) keeps its start and end. It runs before every other result processor (the
 * lowest `order`), so compression, the session and token counting cost as much as the cap.
 */
export function createToolOutputCap(options: { maxCharacters?: number } = {}): ContextPolicy {
  const maxCharacters = options.maxCharacters ?? defaultMaxToolResultCharacters;
  return {
    name: toolOutputCapPolicyName,
    order: Number.MIN_SAFE_INTEGER,
    inherit: "share",
    processToolResult(result) {
      return result.content.length <= maxCharacters ? result : { ...result, content: capToolOutput(result.content, maxCharacters) };
    },
  };
}
