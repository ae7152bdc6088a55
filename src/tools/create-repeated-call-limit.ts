import type { ContextPolicy } from "../context/context-policy.js";
import { createRepeatedCallDetector } from "./repeated-call-detector.js";

export const repeatedCallLimitPolicyName = "repeated-call-limit";

/**
 * Identical consecutive tool calls (same name, same arguments): at `limit` (default 3) in a row the
 * call is not run and the model is told why; one more and the run stops with `repeated_tool_call`.
 * Each child counts its own calls (`inherit: "copy"`).
 */
export function createRepeatedCallLimit(options: { limit?: number } = {}): ContextPolicy {
  const limit = options.limit ?? 3;
  // Counted per run: a new message from the person may rightly ask for the same call again.
  let detect = createRepeatedCallDetector(limit);
  return {
    name: repeatedCallLimitPolicyName,
    inherit: "copy",
    forChild: () => createRepeatedCallLimit(options),
    startRun() {
      detect = createRepeatedCallDetector(limit);
      return undefined;
    },
    onToolCall({ call }) {
      const verdict = detect(call);
      if (verdict === "ok") return { action: "allow" };
      if (verdict === "warn") {
        return {
          action: "refuse",
          kind: "failed",
          message: `You have called '${call.name}' with identical arguments ${limit} times in a row; it was not run again because the result will not change. Use the earlier result or try a different approach. One more identical call stops the run.`,
        };
      }
      const stopMessage = "The model repeated an identical tool call after being warned; the run was stopped.";
      return {
        action: "refuse",
        kind: "failed",
        message: `'${call.name}' was called with identical arguments again after a warning; the run stops here.`,
        stop: { stopReason: "repeated_tool_call", error: { code: "repeated_tool_call", message: stopMessage } },
        warnings: [{ code: "repeated_tool_call", message: stopMessage }],
      };
    },
  };
}
