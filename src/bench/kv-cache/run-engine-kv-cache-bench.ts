import type { LlamaProvider } from "../../providers/llama/index.js";
import { commonPrefixTokens } from "../../tokens/common-prefix-tokens.js";
import { CtxkitError, ProviderError, type ModelRequest } from "../../types/index.js";
import { buildModeRequests, contextModes, type ContextMode, type Dialogue } from "./context-modes.js";
import { runOfflineKvCacheBench, type OfflineModeResult } from "./run-offline-kv-cache-bench.js";

export interface EngineModeResult {
  mode: ContextMode;
  calls: number;
  /** Prompt tokens the engine evaluated or reused, summed; every call's tokens as ctxkit rendered them for the model. */
  promptTokens: number;
  /** Tokens the engine kept in its KV cache, on the calls after the first of each dialogue (comparable to the offline reusable prefix). */
  reusedTokens: number;
  reusedShare: number;
  /** Calls whose engine reuse equals the common token prefix with the call before it, as ctxkit predicts it. */
  reuseAsPredicted: number;
  /** Prefill + first token, per call; the first call of each dialogue excluded (it follows another dialogue or mode). */
  ttftMs: { median: number | null; mean: number | null; samples: number };
  /** The offline, token-exact numbers of the same calls. */
  offline: Pick<OfflineModeResult, "promptTokens" | "reusablePrefixTokens" | "reusableShare" | "undeclaredBreaks">;
}

export interface EngineKvCacheBenchResult {
  engine: string;
  model: string;
  dialogues: number;
  callsPerDialogue: number | null;
  modes: EngineModeResult[];
}

export interface EngineKvCacheBenchOptions {
  provider: LlamaProvider;
  dialogues: readonly Dialogue[];
  modes?: readonly ContextMode[];
  /** Only the first calls of each dialogue (the engine prefills every broken prompt in full: slow on a CPU). */
  callsPerDialogue?: number;
  signal?: AbortSignal;
  onCall?: (progress: { mode: ContextMode; call: number; calls: number }) => void;
}

/**
 * Experiment 2-3 on the embedded llama.cpp engine: each mode's requests (one output token) through
 * one KV-cache sequence, with the reuse the engine reports and the time to the first token, next
 * to the offline token-exact count of the same calls. A mistake in the context layout shows up as
 * real recomputation: tokens re-evaluated and a longer TTFT.
 */
export async function runEngineKvCacheBench(options: EngineKvCacheBenchOptions): Promise<EngineKvCacheBenchResult> {
  const modes = options.modes ?? contextModes;
  const dialogues = options.callsPerDialogue === undefined ? options.dialogues : options.dialogues.map((dialogue) => firstCalls(dialogue, options.callsPerDialogue!));
  const offline = new Map(runOfflineKvCacheBench({ dialogues, modes }).modes.map((result) => [result.mode, result]));
  const { provider } = options;
  const results: EngineModeResult[] = [];
  for (const mode of modes) {
    const ttfts: number[] = [];
    const result: EngineModeResult = { mode, calls: 0, promptTokens: 0, reusedTokens: 0, reusedShare: 0, reuseAsPredicted: 0, ttftMs: { median: null, mean: null, samples: 0 }, offline: offlineOf(offline.get(mode)!) };
    const requests = dialogues.flatMap((dialogue) => buildModeRequests(dialogue, mode).map((request, index) => ({ request, firstOfDialogue: index === 0 })));
    for (const [index, { request, firstOfDialogue }] of requests.entries()) {
      const previous = provider.calls.at(-1)?.promptTokens;
      await send(provider, { ...request, settings: { ...request.settings, maxOutputTokens: 1 } }, options.signal);
      const record = provider.calls.at(-1)!;
      result.calls++;
      result.promptTokens += record.promptTokens.length;
      if (record.reusedTokens === (previous === undefined ? 0 : commonPrefixTokens(previous, record.promptTokens))) result.reuseAsPredicted++;
      if (!firstOfDialogue) {
        result.reusedTokens += record.reusedTokens;
        if (record.timeToFirstTokenMs !== undefined) ttfts.push(record.timeToFirstTokenMs);
      }
      options.onCall?.({ mode, call: index + 1, calls: requests.length });
    }
    result.reusedShare = result.promptTokens === 0 ? 0 : result.reusedTokens / result.promptTokens;
    result.ttftMs = { median: median(ttfts), mean: ttfts.length === 0 ? null : ttfts.reduce((sum, value) => sum + value, 0) / ttfts.length, samples: ttfts.length };
    results.push(result);
  }
  return { engine: provider.name, model: provider.model, dialogues: dialogues.length, callsPerDialogue: options.callsPerDialogue ?? null, modes: results };
}

/** The dialogue up to and including its n-th reply: buildModeRequests then makes n calls of it. */
export function firstCalls(dialogue: Dialogue, calls: number): Dialogue {
  let seen = 0;
  const end = dialogue.messages.findIndex((message) => message.role === "assistant" && ++seen === calls);
  return end < 0 ? dialogue : { ...dialogue, messages: dialogue.messages.slice(0, end + 1) };
}

async function send(provider: LlamaProvider, request: ModelRequest, signal?: AbortSignal): Promise<void> {
  for await (const event of provider.stream(request, signal)) {
    if (event.type === "done") return;
    if (event.type === "error") throw new CtxkitError(event.error.code, `The embedded engine failed a call: ${event.error.message}`, { cause: event.error });
  }
  throw new ProviderError("provider_response_invalid", `${provider.name} ended a stream without a done or error event.`);
}

function offlineOf(result: OfflineModeResult): EngineModeResult["offline"] {
  return { promptTokens: result.promptTokens, reusablePrefixTokens: result.reusablePrefixTokens, reusableShare: result.reusableShare, undeclaredBreaks: result.undeclaredBreaks };
}

function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
