import { applyEdits } from "../../context/compose-context-policies.js";
import { toProcessedToolResult } from "../../context/context-policy.js";
import type { ContextPolicy } from "../../context/context-policy.js";
import type { StablePrefix } from "../../context/stable-prefix.js";
import type { ModelPricing } from "../../tokens/pricing.js";
import type { Message, ModelRequest, ToolCallPart, ToolMessage, Usage } from "../../types/index.js";
import { visibleTextOf } from "./message-text.js";
import type { PromptMeter } from "./prompt-meter.js";
import type { RecordedRun } from "./recorded-run.js";
import type { ReferencePair } from "./reference-pairs.js";
import { callCost } from "./replay-cost.js";
import type { ReplayedSummaryCall, SummaryRecorder } from "./summary-calls.js";

export interface ReplayRunOptions {
  contextWindow: number;
  meter: PromptMeter;
  pricing: ModelPricing;
  /** The identifiers to score recall on (see `findReferencePairs`); the same for every policy. */
  pairs: readonly ReferencePair[];
  /** Told the replay's synthetic time before each tool result and call (for policies' clocks). */
  onClock?: (now: Date) => void;
  /** Sees every request as it would have been sent (for `--emit-requests`). */
  onRequest?: (call: number, request: ModelRequest, promptTokens: number) => void;
  /** The policy's summariser, recording: every summary it wrote is billed as a model call. */
  summaries?: SummaryRecorder;
}

/** One replayed call. */
export interface ReplayedCall {
  call: number;
  promptTokens: number;
  reusablePrefixTokens: number;
  uncachedTokens: number;
  outputTokens: number;
  cost: number;
  /** The request sent (after any retry) was over the window: the call failed. */
  overflow: boolean;
  /** The first attempt was over the window and the policy's retry (`overflow: true`) brought it under. */
  rescued: boolean;
  /** Replace edits the policy made before this call. */
  compactions: number;
}

export interface ReplayedRun {
  run: string;
  policy: string;
  calls: ReplayedCall[];
  /**
   * Reference pairs scored; the identifiers no longer visible where the model wrote them; and the
   * pairs whose source line (`ReferencePair.line`) was no longer visible verbatim. A pair at a call
   * that overflowed is lost on both counts: the model never saw that request.
   */
  references: number;
  lostReferences: Array<{ identifier: string; call: number }>;
  lostLines: Array<{ identifier: string; call: number }>;
  /** Every summary the policy asked for, billed as the model call it would be (see `createSummaryRecorder`). */
  summaryCalls: ReplayedSummaryCall[];
}

// Recorded runs rarely keep timestamps the same way; a fixed synthetic clock, one call every ten
// seconds (well inside any cache TTL), keeps policies that reason about time deterministic.
const replayEpoch = Date.UTC(2025, 0, 1);
const secondsPerCall = 10;

/**
 * Replays one recorded run under one policy: the recorded model turns are kept and the context
 * each call would have sent is rebuilt. Tool results pass through `processToolResult` before they
 * are appended; before each recorded call `prepareContext` runs (told the previous replayed call's
 * prompt tokens), its edits are applied, and the request is measured; then the recorded answer is
 * appended. `policy` must be fresh: policies keep per-run state.
 */
export async function replayRun(run: RecordedRun, policy: ContextPolicy, options: ReplayRunOptions): Promise<ReplayedRun> {
  const { meter } = options;
  const prefix: StablePrefix = { system: run.system, tools: run.tools };
  const pairsByMessage = groupBy(options.pairs, (pair) => pair.writtenIndex);
  const callIndex = new Map(run.calls.map((call, number) => [call.index, number]));
  const toolCalls = new Map<string, ToolCallPart>();
  const toolCallCounts = new Map<string, number>();
  const signal = new AbortController().signal;
  const result: ReplayedRun = { run: run.id, policy: policy.name, calls: [], references: 0, lostReferences: [], lostLines: [], summaryCalls: [] };
  const billSummaries = (beforeCall: number) => {
    if (options.summaries) result.summaryCalls.push(...options.summaries.take(previous, beforeCall));
  };
  let context: readonly Message[] = [];
  let previous: ModelRequest | undefined;
  let lastUsage: Usage | undefined;

  for (const [index, original] of run.messages.entries()) {
    const number = callIndex.get(index);
    const now = new Date(replayEpoch + (number ?? result.calls.length) * secondsPerCall * 1000);
    options.onClock?.(now);
    if (number === undefined) {
      let message = original;
      if (message.role === "tool" && policy.processToolResult) {
        message = toProcessedToolResult(await policy.processToolResult(message, toolResultInfo(message, toolCalls, toolCallCounts, now))).message;
        billSummaries(result.calls.length + 1);
      }
      context = [...context, message];
      continue;
    }
    if (original.role !== "assistant") continue;

    const prepare = async (overflow: boolean) =>
      (await policy.prepareContext?.({
        messages: context,
        prefix,
        iteration: number,
        now,
        ...(lastUsage ? { lastUsage, lastRequestAt: new Date(now.getTime() - secondsPerCall * 1000) } : {}),
        overflow,
        signal,
      })) ?? [];
    let edits = await prepare(false);
    billSummaries(number + 1);
    context = applyEdits(context, edits);
    let request = requestOf(run, context);
    let promptTokens = meter.requestTokens(request);
    let rescued = false;
    // As the agent loop does on a context-length error: tell the policy and retry the call once.
    // The rejected attempt is not billed (providers refuse it before processing any token).
    if (promptTokens > options.contextWindow && policy.prepareContext) {
      const retryEdits = await prepare(true);
      billSummaries(number + 1);
      if (retryEdits.length > 0) {
        context = applyEdits(context, retryEdits);
        edits = [...edits, ...retryEdits];
        request = requestOf(run, context);
        promptTokens = meter.requestTokens(request);
        rescued = promptTokens <= options.contextWindow;
      }
    }
    const overflow = promptTokens > options.contextWindow;
    const reusablePrefixTokens = meter.reusablePrefixTokens(previous, request);
    const outputTokens = run.calls[number]!.reportedUsage?.completionTokens ?? meter.messageTokens(original);
    const uncachedTokens = promptTokens - reusablePrefixTokens;
    result.calls.push({
      call: number + 1,
      promptTokens,
      reusablePrefixTokens,
      uncachedTokens,
      outputTokens,
      cost: callCost({ uncachedTokens, reusablePrefixTokens, outputTokens }, options.pricing),
      overflow,
      rescued,
      compactions: edits.filter((edit) => edit.type === "replace").length,
    });
    const visible = (text: string) => !overflow && request.messages.some((message) => visibleTextOf(message).includes(text));
    for (const pair of pairsByMessage.get(index) ?? []) {
      result.references++;
      if (!visible(pair.identifier)) result.lostReferences.push({ identifier: pair.identifier, call: number + 1 });
      if (!visible(pair.line)) result.lostLines.push({ identifier: pair.identifier, call: number + 1 });
    }
    options.onRequest?.(number + 1, request, promptTokens);
    previous = request;
    lastUsage = { inputTokens: promptTokens, cachedInputTokens: reusablePrefixTokens, cacheWriteTokens: 0, outputTokens, reasoningTokens: 0 };
    for (const part of original.content) if (part.type === "tool_call") toolCalls.set(part.id, part);
    context = [...context, original];
  }
  return result;
}

function requestOf(run: RecordedRun, context: readonly Message[]): ModelRequest {
  return { system: run.system, tools: run.tools, messages: [...context], cacheBreakpoints: [], settings: {} };
}

const totalKey = "\u0000all tools";

/** What the agent loop would have told the processor; durations are not recorded, so 0. */
function toolResultInfo(message: ToolMessage, toolCalls: Map<string, ToolCallPart>, counts: Map<string, number>, now: Date) {
  const call = toolCalls.get(message.toolCallId) ?? { type: "tool_call", id: message.toolCallId, name: message.toolName, argumentsText: "{}", arguments: {} };
  const callNumber = (counts.get(call.name) ?? 0) + 1;
  const totalCallNumber = (counts.get(totalKey) ?? 0) + 1;
  counts.set(call.name, callNumber);
  counts.set(totalKey, totalCallNumber);
  return { call, durationMs: 0, callNumber, totalCallNumber, now, ...(message.isError ? { errorKind: "failed" as const } : {}) };
}

function groupBy<T, K>(items: readonly T[], key: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const group = groups.get(key(item));
    if (group) group.push(item);
    else groups.set(key(item), [item]);
  }
  return groups;
}
