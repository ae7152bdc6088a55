import type { StopReason } from "../../types/index.js";

/**
 * Maps Anthropic's `stop_reason` (https://docs.anthropic.com/en/api/handling-stop-reasons) to the
 * unified reason. The raw value is kept next to it by the caller for debugging.
 * - `pause_turn`: the server's tool loop (web search, web fetch, code execution) reached its iteration
 *   limit, and the docs' remedy is to send the assistant content back to continue
 *   (https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/server-tools). The turn is not
 *   over, so "paused": the loop sends the next request with this response as its last message,
 *   unchanged (server tool blocks and thinking signatures included).
 * - `model_context_window_exceeded`: generation hit the window, which is a length stop.
 * Unknown or missing values become "tool_calls" when the response has tool calls, else "stop".
 */
export function mapAnthropicStopReason(raw: string | null | undefined, hasToolCalls: boolean): StopReason {
  switch (raw) {
    case "end_turn":
    case "stop_sequence":
      return "stop";
    case "pause_turn":
      return "paused";
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
