import type { StopReason } from "../../types/index.js";

/**
 * Maps Anthropic's `stop_reason` (https://docs.anthropic.com/en/api/handling-stop-reasons) to the
 * unified reason. The raw value is kept next to it by the caller for debugging.
 * - `pause_turn`: a long server-tool turn was paused; the turn is over for this call, so "stop".
 * - `model_context_window_exceeded`: generation hit the window, which is a length stop.
 * Unknown or missing values become "tool_calls" when the response has tool calls, else "stop".
 */
export function mapAnthropicStopReason(raw: string | null | undefined, hasToolCalls: boolean): StopReason {
  switch (raw) {
    case "end_turn":
    case "stop_sequence":
    case "pause_turn":
      return "stop";
    case "tool_use":
      return "tool_calls";
    case "max_tokens":
    case "model_context_window_exceeded":
      return "length";
    case "refusal":
      return "content_filter";
    default:
      return hasToolCalls ? "tool_calls" : "stop";
  }
}
