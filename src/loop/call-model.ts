import type { ModelResponse, Provider } from "../providers/provider.js";
import { CtxkitError, type AgentEvent, type ModelRequest, type Usage, ProviderError } from "../types/index.js";

export type CallOutcome =
  | { ok: true; response: ModelResponse; usage: Usage }
  | { ok: false; error: CtxkitError; partial: ModelResponse; usage?: Usage };

/**
 * Streams one model call and translates provider events into agent events. Returns the complete
 * response, or the error with whatever was produced before it.
 */
export async function* callModel(
  provider: Provider,
  request: ModelRequest,
  turn: number,
  signal: AbortSignal,
): AsyncGenerator<AgentEvent, CallOutcome> {
  const toolCallIds = new Map<number, { id: string; name: string }>();
  for await (const event of provider.stream(request, signal)) {
    switch (event.type) {
      case "start":
      case "tool_call_delta":
        break;
      case "text_delta":
        yield { type: "text_delta", turn, delta: event.delta };
        break;
      case "thinking_delta":
        yield { type: "thinking_delta", turn, delta: event.delta };
        break;
      case "tool_call_start":
        toolCallIds.set(event.index, { id: event.id, name: event.name });
        yield { type: "tool_call_start", turn, id: event.id, name: event.name };
        break;
      case "done":
        return { ok: true, response: event.response, usage: event.usage };
      case "error":
        return { ok: false, error: event.error, partial: event.partial, ...(event.usage ? { usage: event.usage } : {}) };
    }
  }
  // A provider that ends without a terminal event broke the contract; report it as an error.
  return {
    ok: false,
    error: new ProviderError("provider_response_invalid", `Provider '${provider.name}' ended its stream without a done or error event.`),
    partial: { content: [], stopReason: "error" },
  };
}
