import type { Provider, ProviderEvent } from "../providers/provider.js";
import { CtxkitError, type ModelRequest } from "../types/index.js";
import type { DurableRunContext } from "./durable-run-context.js";
import { getTokenCounter } from "../tokens/get-token-counter.js";
import { sharedBudgetCrossings, type SharedBudgetCrossing } from "./shared-budget-crossings.js";
import type { ResponsesCompaction } from "../providers/openai-responses/compact-responses.js";
import { reservationKey } from "./shared-budget.js";

type RecordedEvent = Exclude<ProviderEvent, { type: "error" }> | (Omit<Extract<ProviderEvent, { type: "error" }>, "error"> & { error: { code: string; message: string } });

/**
 * The provider as a run's model calls are made on a worker: each call is one DBOS step, so a run
 * executed again after a crash gets the recorded reply instead of calling the model again. A call
 * that was in flight at the crash has no record and is made again; each attempt is counted
 * (`ctxkit_model_calls`). With a shared budget the call first reserves what it may use (its prompt's
 * estimate plus its most output); when calls in flight hold what is missing, it waits for them
 * (backpressure, as one process's budget slows calls down), and it is refused only when waiting
 * cannot help or took longer than `budgetWaitMs`. When a worker died during the call, the attempt
 * made again first counts the dead attempt's reservation as spent (it may have been billed). What the
 * call's usage took the scope's spend across (its warning thresholds) is recorded with the reply and
 * handed to the run's shared-budget policy, which reports it as `budget_threshold` warnings.
 */
export function createDurableProvider(inner: Provider, context: DurableRunContext, options: { maxCallTokens: number; budgetWaitMs?: number }): Provider {
  let calls = 0;
  const stream = async function* (request: ModelRequest, signal?: AbortSignal): AsyncIterable<ProviderEvent> {
    // A sub-agent's call (inside its `task` call's step) is numbered within that call.
    const frame = context.scopes.current();
    const callKey = frame ? `${frame.key}/model-${frame.next("model")}` : `model-${calls++}`;
    // Whether this attempt made the call (the step's body ran) or a replay returned its record.
    let ran = false;
    const recorded = await context.step(`model-call`, async (): Promise<RecordedCall> => {
      ran = true;
      const attempt = await context.tables.countModelCall(context.runId, callKey);
      const budget = context.budget;
      const reservation = budget ? reservationOf(inner, request, options.maxCallTokens) : 0;
      // Per attempt: an earlier attempt's worker may still be running it (and settles only its own).
      const ownKey = reservationKey(context.runId, callKey, attempt);
      // Thresholds the dead attempt's charge took the scope across: recorded with this reply, so they
      // warn as a settlement's do (the charge is made once, by the attempt that finds it).
      let crossings: SharedBudgetCrossing[] = [];
      if (budget) {
        if (attempt > 1) {
          const { spend } = await budget.shared.chargeInterrupted(budget.scope, reservationKey(context.runId, callKey), attempt);
          if (spend) crossings = sharedBudgetCrossings(spend, budget.thresholds);
        }
        const refusal = await reserveWithBackpressure(budget, ownKey, reservation, signal, options.budgetWaitMs ?? defaultBudgetWaitMs);
        // A refused call used nothing; its zero usage lets the run's policy report the charge's crossings.
        if (refusal) return JSON.parse(JSON.stringify({ events: [crossings.length > 0 ? { ...refusal, usage: { inputTokens: 0, outputTokens: 0 } } : refusal], at: context.now(), crossings })) as RecordedCall;
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
        if (budget) {
          const spend = await budget.shared.settle(budget.scope, ownKey, used);
          if (spend) crossings = [...crossings, ...sharedBudgetCrossings(spend, budget.thresholds)];
        }
      }
      // Round-tripped through JSON here, so a live call returns exactly what a replay will.
      return JSON.parse(JSON.stringify({ events, at: context.now(), crossings })) as RecordedCall;
    });
    // A sub-agent's call does not move the run's clock: it runs inside its `task` call's step, which a
    // replay returns without running the sub-agent, and it may still be running after the loop's
    // timeout stopped that call (the run's clock then moved while the parent went on). The `task`
    // step's own time moves the clock when the call returns.
    if (!frame) context.clock.advance(recorded.at);
    // Before the reply's events: the loop asks the policies after the call's last event. Only when the
    // call was made now: a replay after a crash would warn again for a crossing already reported.
    if (context.budget && recorded.crossings && ran) context.budget.crossings.push(...recorded.crossings);
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
    // What the loop, tracing and assembly read from a provider: a worker's must say what the inner one says.
    ...pickDefined(inner, ["baseURL", "nativeToolSearch", "cacheLifetimeMs", "compactsOnRequest", "compactionMinimumTokens", "reasoningEffort", "reasoningEfforts", "maxOutputTokens"]),
  };
  if (inner.promptTokens) wrapped.promptTokens = (request) => inner.promptTokens!(request);
  const compact = compactCallOf(inner);
  if (compact) {
    // The Responses API's /responses/compact (the compaction policy's call, on request): one step too,
    // so a replay gets the same window (its items are encrypted, another pass would differ) and the
    // session is written again byte for byte. Nothing is reserved from a shared budget for it: the
    // provider reports what it billed with the next call's usage, which that call's step settles.
    let compactions = 0;
    (wrapped as Provider & { compact: CompactCall }).compact = async (request, signal) => {
      const frame = context.scopes.current();
      const callKey = frame ? `${frame.key}/compact-${frame.next("compact")}` : `compact-${compactions++}`;
      const recorded = await context.step("model-compact", async () => {
        await context.tables.countModelCall(context.runId, callKey);
        const compaction = await compact(request, signal);
        return JSON.parse(JSON.stringify({ compaction, at: context.now() })) as { compaction: ResponsesCompaction; at: number };
      });
      if (!frame) context.clock.advance(recorded.at);
      return recorded.compaction;
    };
  }
  return wrapped;
}

/** One model call as its step records it (`crossings` absent in steps recorded before shared-budget warnings). */
interface RecordedCall {
  events: RecordedEvent[];
  at: number;
  crossings?: SharedBudgetCrossing[];
}

function pickDefined<Key extends keyof Provider>(provider: Provider, keys: readonly Key[]): Partial<Pick<Provider, Key>> {
  const picked: Partial<Pick<Provider, Key>> = {};
  for (const key of keys) if (provider[key] !== undefined) picked[key] = provider[key];
  return picked;
}

type CompactCall = (request: ModelRequest, signal?: AbortSignal) => Promise<ResponsesCompaction>;

/** The provider's on-demand compaction call (`createOpenAIResponses`'s `compact`), bound to it, if it has one. */
function compactCallOf(provider: Provider): CompactCall | undefined {
  const compact = (provider as { compact?: unknown }).compact;
  return typeof compact === "function" ? (compact as CompactCall).bind(provider) : undefined;
}

/** How long a call waits for the calls in flight to release a shared budget before it is refused (5 minutes). */
const defaultBudgetWaitMs = 5 * 60_000;
const estimator = getTokenCounter("estimate");

/** Output tokens a call reserves when neither the request nor the provider sets a limit (the model's own applies). */
export const assumedMaxOutputTokens = 4096;

/**
 * What a call may use: its body's estimated tokens plus its most output — the request's
 * `maxOutputTokens`, else the limit the provider sends by default (Anthropic's `max_tokens`), else
 * 4 096 — at most `maxCallTokens`.
 */
export function reservationOf(provider: Provider, request: ModelRequest, maxCallTokens: number): number {
  return Math.min(maxCallTokens, estimator.count(provider.serialize(request).body) + (request.settings?.maxOutputTokens ?? provider.maxOutputTokens ?? assumedMaxOutputTokens));
}

async function reserveWithBackpressure(budget: NonNullable<DurableRunContext["budget"]>, key: string, tokens: number, signal: AbortSignal | undefined, waitMs: number): Promise<RecordedEvent | undefined> {
  const deadline = Date.now() + waitMs;
  for (let pause = 200; ; pause = Math.min(pause * 2, 2_000)) {
    const outcome = await budget.shared.reserve(budget.scope, key, tokens);
    if (outcome.reserved) return undefined;
    if (!outcome.waitHelps) return budgetRefusal(budget.scope, `it has too little left for a call of up to ${tokens} tokens`);
    if (Date.now() + pause > deadline || signal?.aborted) return budgetRefusal(budget.scope, `the calls in flight on its workers still held it after ${Math.round(waitMs / 1000)} s`);
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
}

function budgetRefusal(scope: string, why: string): RecordedEvent {
  return {
    type: "error",
    error: { code: "budget_exceeded", message: sharedBudgetRefusal(scope, why) },
    partial: { content: [], stopReason: "error", rawStopReason: "budget_exceeded" } as never,
  };
}

/** A shared budget's refusal, in the library's words (the CLI's toCliMessage names its flags instead). */
export function sharedBudgetRefusal(scope: string, why: string): string {
  return `The shared budget '${scope}' cannot cover another model call: ${why}. Raise its limit (defineBudget("${scope}", <limitTokens>, <maxCallTokens>) on a durable client), or submit the run with another budgetScope.`;
}
