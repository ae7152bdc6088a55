import type { Provider, ProviderEvent } from "../providers/provider.js";
import { CtxkitError, type ModelRequest } from "../types/index.js";
import type { DurableRunContext } from "./durable-run-context.js";

type RecordedEvent = Exclude<ProviderEvent, { type: "error" }> | (Omit<Extract<ProviderEvent, { type: "error" }>, "error"> & { error: { code: string; message: string } });

/**
 * The provider as a run's model calls are made on a worker: each call is one DBOS step, so a run
 * executed again after a crash gets the recorded reply instead of calling the model again. A call
 * that was in flight at the crash has no record and is made again; each attempt is counted
 * (`ctxkit_model_calls`). With a shared budget the call first reserves its largest possible size.
 */
export function createDurableProvider(inner: Provider, context: DurableRunContext, options: { maxCallTokens: number }): Provider {
  let calls = 0;
  const stream = async function* (request: ModelRequest, signal?: AbortSignal): AsyncIterable<ProviderEvent> {
    const callKey = `model-${calls++}`;
    const recorded = await context.step(`model-call`, async () => {
      await context.tables.countModelCall(context.runId, callKey);
      const budget = context.budget;
      if (budget && !(await budget.shared.reserve(budget.scope, options.maxCallTokens))) {
        return { events: [budgetRefusal(budget.scope)], at: context.now() };
      }
      const events: RecordedEvent[] = [];
      let used = 0;
      try {
        for await (const event of inner.stream(request, signal)) {
          if (event.type === "error") {
            events.push({ ...event, error: { code: event.error.code, message: event.error.message } });
            used = event.usage ? event.usage.inputTokens + event.usage.outputTokens : 0;
          } else {
            events.push(event);
            if (event.type === "done") used = event.usage.inputTokens + event.usage.outputTokens;
          }
        }
      } finally {
        if (budget) await budget.shared.settle(budget.scope, options.maxCallTokens, used);
      }
      // Round-tripped through JSON here, so a live call returns exactly what a replay will.
      return JSON.parse(JSON.stringify({ events, at: context.now() })) as { events: RecordedEvent[]; at: number };
    });
    context.clock.advance(recorded.at);
    for (const event of recorded.events) {
      yield event.type === "error" ? ({ ...event, error: new CtxkitError(event.error.code as never, event.error.message) } as ProviderEvent) : (event as ProviderEvent);
    }
  };
  const wrapped: Provider = {
    specificationVersion: inner.specificationVersion,
    name: inner.name,
    model: inner.model,
    stream,
    serialize: (request) => inner.serialize(request),
  };
  if (inner.promptTokens) wrapped.promptTokens = (request) => inner.promptTokens!(request);
  return wrapped;
}

function budgetRefusal(scope: string): RecordedEvent {
  return {
    type: "error",
    error: { code: "budget_exceeded", message: `The shared budget '${scope}' cannot cover another model call (its workers have spent or reserved it). Raise its limit, or wait for calls in flight to settle.` },
    partial: { content: [], stopReason: "error", rawStopReason: "budget_exceeded" } as never,
  };
}
