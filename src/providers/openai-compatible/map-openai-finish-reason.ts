import type { StopReason } from "../../types/index.js";

export interface MappedFinishReason {
  stopReason: StopReason;
  /** The vendor's value, kept for debugging; absent when the server sent none. */
  rawStopReason?: string;
}

/**
 * Maps Chat Completions `finish_reason` to the unified stop reason, keeping the raw value.
 * When the response holds tool calls the loop must run them, whatever the server said: some
 * OpenAI-compatible servers (older Ollama and llama.cpp builds) answer "stop" next to `tool_calls`.
 */
export function mapOpenAIFinishReason(raw: string | null | undefined, hasToolCalls: boolean): MappedFinishReason {
  const rawStopReason = typeof raw === "string" && raw !== "" ? raw : undefined;
  const unified = unifiedReason(rawStopReason);
  const stopReason = hasToolCalls && (unified === "stop" || unified === "tool_calls") ? "tool_calls" : unified;
  return rawStopReason === undefined ? { stopReason } : { stopReason, rawStopReason };
}

function unifiedReason(raw: string | undefined): StopReason {
  switch (raw) {
    case "tool_calls":
    case "function_call": // the deprecated `functions` API
      return "tool_calls";
    case "length":
      return "length";
    case "content_filter":
    case "sensitive": // GLM: "sensitive" when its content safety system stops the output
      return "content_filter";
    case "insufficient_system_resource": // DeepSeek: interrupted for lack of inference capacity
    case "network_error": // GLM: "network_error" when the model inference fails
    case "error": // OpenRouter: an upstream provider failed mid-stream; vLLM: the engine failed the request
    case "abort": // vLLM: the engine aborted the request (FinishReason.ABORT), so the answer is cut short
      return "error";
    default:
      // "stop", "eos" and servers that send none: the model finished its turn.
      return "stop";
  }
}
