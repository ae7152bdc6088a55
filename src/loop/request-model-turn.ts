import { describeCacheBreak, hashBody } from "../context/prefix-guard/index.js";
import { isCtxkitError, type CacheBreak, type AgentEvent, type AssistantPart, type RunError, type RunErrorCode, type Usage, type UserMessage } from "../types/index.js";
import type { ModelResponse } from "../providers/provider.js";
import { applyContextEdits } from "./apply-context-edits.js";
import { observeCacheMiss } from "./observe-cache-miss.js";
import { callModel } from "./call-model.js";
import { passCallGate } from "./pass-call-gate.js";
import type { LoopState } from "./loop-state.js";
import type { PolicyStop } from "../context/policy-gates.js";

export type TurnOutcome =
  | { kind: "response"; response: ModelResponse }
  | { kind: "aborted"; partial: AssistantPart[] }
  | { kind: "failed"; error: RunError }
  /** A policy's call gate refused the call: the run ends with its stop reason. */
  | { kind: "refused"; stop: PolicyStop };

export interface TurnContext {
  state: LoopState;
  turn: number;
  runId: string;
  signal: AbortSignal;
  /** Called with each call's usage, for the run's totals. */
  onUsage: (usage: Usage) => void;
  /**
   * The request goes on with the model's own turn, which the loop did not take as an answer (the
   * provider paused it, or a policy's `continueTurn`): it ends with that assistant message.
   */
  continuesTurn?: boolean;
}

/**
 * One model turn: let the context preparer edit the context, build the request (with its tail),
 * check the prefix, record and flush the request, and stream the call. A context overflow gets
 * one retry after the preparer has compacted.
 */
export async function* requestModelTurn(context: TurnContext): AsyncGenerator<AgentEvent, TurnOutcome> {
  const { state, turn, signal } = context;
  const { options, clock } = state;
  const session = options.session;
  let overflow = false;

  const policy = state.policy;
  while (true) {
    if (policy.prepareContext) {
      let edits;
      try {
        edits = await policy.prepareContext({
          messages: state.trajectory,
          prefix: state.prefix,
          iteration: turn,
          now: clock(),
          ...(state.lastUsage ? { lastUsage: state.lastUsage } : {}),
          ...(state.lastRequestAt ? { lastRequestAt: state.lastRequestAt } : {}),
          overflow,
          signal,
        });
        const applied = applyContextEdits(edits ?? [], { trajectory: state.trajectory, session, blobStore: state.blobStore, replaced: state.replaced }, turn, clock().toISOString());
        for (const event of applied.events) yield event;
        if (applied.declaredReason) state.declaredBreak = { reason: applied.declaredReason };
      } catch (error) {
        return { kind: "failed", error: errorFields(error, "context_preparation_failed") };
      }
    }

    // A request that goes on with a paused turn ends with the assistant's message; a tail after it
    // would be a new user turn, which the model answers instead of going on with its own. Told by the
    // loop, not read from the last message's role: a compaction can leave an assistant message last
    // (OpenAI's /responses/compact items) before a normal call, which keeps its tail.
    const tailParts = context.continuesTurn === true ? [] : policy.tailParts({ trajectory: state.trajectory, iteration: turn, now: clock() });
    const tailText = tailParts.length === 0 ? undefined : tailParts.map((part) => part.text).join("\n\n");
    const tail: UserMessage | undefined =
      tailText === undefined
        ? undefined
        : { role: "user", content: tailText, meta: { id: `tail_${context.runId}_${turn}`, origin: "harness", createdAt: clock().toISOString() } };
    const request = state.buildRequest(tail);
    const compaction = state.serverCompaction;
    if (compaction !== undefined) request.serverCompaction = compaction;
    // The effort in force for this call (the agent's, else the provider's), recorded per call; a
    // provider that sends no effort (no `reasoningEffort` of its own) ignores the agent's too.
    const effort = options.provider.reasoningEffort === undefined ? undefined : (request.settings.reasoningEffort ?? options.provider.reasoningEffort);
    const refused = yield* passCallGate(state, request, turn, signal);
    if (refused) return { kind: "refused", stop: refused };
    if (signal.aborted) return { kind: "aborted", partial: [] };

    let bodyHash: string | undefined;
    let cacheBreak: CacheBreak | undefined;
    let reusablePrefixTokens: number | undefined;
    if (state.guard) {
      let check;
      try {
        check = state.guard.check(request, state.declaredBreak);
      } catch (error) {
        return { kind: "failed", error: errorFields(error, "prefix_break") };
      }
      bodyHash = check.bodyHash;
      state.declaredBreak = undefined;
      cacheBreak = check.cacheBreak;
      reusablePrefixTokens = check.reusablePrefixTokens ?? check.estimatedReusablePrefixTokens;
      if (check.cacheBreak) {
        const { excerpt: _excerpt, ...fields } = check.cacheBreak;
        yield { type: "cache_break", turn, ...fields };
        if (!check.cacheBreak.declared) {
          yield { type: "warning", code: "undeclared_cache_break", message: describeCacheBreak(check.cacheBreak) };
        }
      }
    }

    let requestIndex = -1;
    if (session) {
      // Nothing is sent that the session could not record (a full disk, a closed writer).
      try {
        bodyHash ??= hashBody(options.provider.serialize(request).body);
        // The session holds the prefix the agent really sends: its own tools and system prompt plus
        // every policy's (a caller's startSession may not have known them).
        session.recordPrefix?.(
          { system: request.system, tools: request.tools, provider: options.provider.name, model: options.provider.model },
          "the agent's system prompt or tools differ from the session's (context policies add tools and system sections)",
        );
        requestIndex = session.appendRequest({
          messageCount: request.messages.length,
          tail: request.tail ?? null,
          provider: options.provider.name,
          model: options.provider.model,
          at: clock().toISOString(),
          bodyHash,
          ...(effort === undefined ? {} : { effort }),
          // What inspect and view judge an expiry by later (null: the provider names no lifetime).
          cacheLifetimeMs: options.provider.cacheLifetimeMs ?? null,
        });
        await session.flush();
      } catch (error) {
        const { message } = errorFields(error, "session_write_failed");
        return { kind: "failed", error: { code: "session_write_failed", message: `Could not record the request in session ${session.id}: ${message}` } };
      }
    }
    const { maxOutputTokens, temperature } = request.settings;
    yield {
      type: "request", turn, messageCount: request.messages.length, hasTail: request.tail !== undefined, provider: options.provider.name, model: options.provider.model,
      ...(maxOutputTokens !== undefined ? { maxOutputTokens } : {}), ...(temperature !== undefined ? { temperature } : {}), ...(reusablePrefixTokens !== undefined ? { reusablePrefixTokens } : {}),
      ...(options.provider.baseURL !== undefined ? { baseURL: options.provider.baseURL } : {}),
      ...(tailParts.length > 0 ? { tailPolicies: tailParts.map((part) => part.policy) } : {}),
    };

    state.lastRequestAt = clock();
    const outcome = yield* callModel(options.provider, request, turn, signal);
    // Asked for once: a retry or the next call does not compact again.
    state.serverCompaction = undefined;
    if (outcome.usage) {
      state.lastUsage = outcome.usage;
      context.onUsage(outcome.usage);
      // Usage records point at the request record they belong to (numbered across the whole session).
      session?.appendUsage(requestIndex, outcome.usage);
      yield { type: "usage", turn, usage: outcome.usage };
      if (compaction !== undefined && !(outcome.usage.serverContext?.edits.some((edit) => edit.type === "compaction") ?? false)) {
        yield { type: "warning", code: "server_compaction_skipped", message: compactionSkipped(outcome.usage.inputTokens, options.provider.compactionMinimumTokens) };
      }
      const seen = observeCacheMiss(state.lastCacheObservation, { usage: outcome.usage, sentAt: state.lastRequestAt, provider: options.provider, ...(cacheBreak ? { cacheBreak } : {}), ...(effort === undefined ? {} : { effort }) });
      state.lastCacheObservation = seen.observation;
      if (seen.miss) yield { type: "cache_miss", turn, ...seen.miss };
      for (const warning of policy.afterCall?.(outcome.usage, { model: options.provider.model }) ?? []) yield { type: "warning", ...warning };
    }
    if (outcome.ok) return { kind: "response", response: outcome.response };
    if (outcome.error.code === "aborted" || signal.aborted) {
      return { kind: "aborted", partial: outcome.partial.content };
    }
    // A budget the provider keeps (a durable run's shared scope, which must reserve in the same
    // statement that checks the limit) refuses as a call gate's budget does: a warning, and the run
    // ends with stop reason `budget_exceeded`, not as a failed call.
    // (A run error code, not a provider one: the durable provider carries it through its error event.)
    if ((outcome.error.code as string) === "budget_exceeded") {
      const error = { code: "budget_exceeded" as const, message: outcome.error.message };
      yield { type: "warning", ...error };
      return { kind: "refused", stop: { stopReason: "budget_exceeded", error } };
    }
    if (outcome.error.code === "context_overflow" && policy.prepareContext && !overflow) {
      overflow = true;
      yield { type: "warning", code: "context_overflow", message: `${outcome.error.message} Compacting and retrying once.` };
      continue;
    }
    return { kind: "failed", error: { code: outcome.error.code, message: outcome.error.message } };
  }
}

/** Why a call asked to compact came back without a compaction, by the provider's declared minimum. */
function compactionSkipped(promptTokens: number, minimum: number | undefined): string {
  const tokens = (count: number) => count.toLocaleString("en-US");
  const why =
    minimum !== undefined && promptTokens < minimum
      ? `did not: this prompt had ${tokens(promptTokens)} input tokens, under the provider's lowest compaction trigger of ${tokens(minimum)}`
      : minimum !== undefined
        ? `reported no compaction, although the prompt (${tokens(promptTokens)} input tokens) was over the provider's lowest compaction trigger of ${tokens(minimum)}`
        : `reported no compaction (the prompt had ${tokens(promptTokens)} input tokens)`;
  return `The server was asked to compact but ${why}. The call was answered as usual.`;
}

function errorFields(error: unknown, fallbackCode: RunErrorCode): RunError {
  return { code: isCtxkitError(error) ? error.code : fallbackCode, message: error instanceof Error ? error.message : String(error) };
}
