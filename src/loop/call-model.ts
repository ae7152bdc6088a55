import type { ModelResponse, Provider } from "../providers/provider.js";
import { createContentBlockTracker } from "./content-block-tracker.js";
import { CtxkitError, type AgentEvent, type ModelRequest, type Usage, ProviderError } from "../types/index.js";

export type CallOutcome =
  | { ok: true; response: ModelResponse; usage: Usage }
  | { ok: false; error: CtxkitError; partial: ModelResponse; usage?: Usage };

/**
 * Streams one model call and translates provider events into agent events (one start, deltas and
 * one end per content block, see content-block-tracker.ts). Returns the complete
 * response, or the error with whatever was produced before it.
 */
export async function* callModel(
  provider: Provider,
  request: ModelRequest,
  turn: number,
  signal: AbortSignal,
): AsyncGenerator<AgentEvent, CallOutcome> {
  const blocks = createContentBlockTracker(turn);
  for await (const event of provider.stream(request, signal)) {
    if (event.type === "done") {
      yield* blocks.finish(event.response);
      return { ok: true, response: event.response, usage: event.usage };
    }
    if (event.type === "error") {
      return { ok: false, error: event.error, partial: event.partial, ...(event.usage ? { usage: event.usage } : {}) };
    }
    yield* blocks.apply(event);
  }
  // A provider that ends without a terminal event broke the contract; report it as an error.
  return {
    ok: false,
    error: new ProviderError("provider_response_invalid", `Provider '${provider.name}' ended its stream without a done or error event.`),
    partial: { content: [], stopReason: "error" },
  };
}
