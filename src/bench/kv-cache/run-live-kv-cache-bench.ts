import type { Provider } from "../../providers/provider.js";
import { CtxkitError, type ModelRequest, type Usage, ProviderError } from "../../types/index.js";
import { buildModeRequests, contextModes, type ContextMode, type Dialogue } from "./context-modes.js";

export interface LiveModeResult {
  mode: ContextMode;
  dialogues: number;
  calls: number;
  /** Calls that ended in an error event (after the provider's retries). */
  errors: number;
  firstError?: string;
  /** Prompt tokens and cached prompt tokens as the provider reported them. */
  promptTokens: number;
  reportedCachedTokens: number;
  reportedCachedShare: number;
  /** Time to the first streamed token; calls without one (no streaming) are not counted. */
  ttftMs: { mean: number | null; median: number | null; samples: number };
}

export interface LiveKvCacheBenchOptions {
  provider: Provider;
  dialogues: readonly Dialogue[];
  modes?: readonly ContextMode[];
  /** Only the prompt has to be processed: one output token is enough (default 1). */
  maxOutputTokens?: number;
  signal?: AbortSignal;
  onCall?: (progress: { mode: ContextMode; call: number; calls: number }) => void;
}

export interface LiveKvCacheBenchResult {
  provider: string;
  model: string;
  dialogues: number;
  modes: LiveModeResult[];
}

/**
 * Experiment 2-3 against a real endpoint: sends every mode's requests with streaming, one mode
 * after the other, and reports true TTFT and the provider's cached tokens. A failure before any
 * call succeeded (wrong URL, key or model) throws it; later failures are counted per mode.
 */
export async function runLiveKvCacheBench(options: LiveKvCacheBenchOptions): Promise<LiveKvCacheBenchResult> {
  const modes = options.modes ?? contextModes;
  const maxOutputTokens = options.maxOutputTokens ?? 1;
  const results: LiveModeResult[] = [];
  let succeeded = 0;
  for (const mode of modes) {
    const requests = options.dialogues.flatMap((dialogue) => buildModeRequests(dialogue, mode));
    const ttfts: number[] = [];
    const result: LiveModeResult = { ...emptyResult(mode), dialogues: options.dialogues.length };
    for (const [index, request] of requests.entries()) {
      const outcome = await send(options.provider, { ...request, settings: { ...request.settings, maxOutputTokens } }, options.signal);
      result.calls++;
      if (outcome.usage !== undefined) {
        result.promptTokens += outcome.usage.inputTokens;
        result.reportedCachedTokens += outcome.usage.cachedInputTokens;
      }
      if (outcome.error === undefined) {
        succeeded++;
        if (outcome.usage?.timeToFirstTokenMs !== undefined) ttfts.push(outcome.usage.timeToFirstTokenMs);
      } else {
        if (succeeded === 0) throw new CtxkitError(outcome.error.code, `The first live call failed: ${outcome.error.message}`, { cause: outcome.error });
        result.errors++;
        result.firstError ??= outcome.error.message;
      }
      options.onCall?.({ mode, call: index + 1, calls: requests.length });
    }
    result.reportedCachedShare = result.promptTokens === 0 ? 0 : result.reportedCachedTokens / result.promptTokens;
    result.ttftMs = { mean: mean(ttfts), median: median(ttfts), samples: ttfts.length };
    results.push(result);
  }
  return { provider: options.provider.name, model: options.provider.model, dialogues: options.dialogues.length, modes: results };
}

async function send(provider: Provider, request: ModelRequest, signal?: AbortSignal): Promise<{ usage?: Usage; error?: CtxkitError }> {
  for await (const event of provider.stream(request, signal)) {
    if (event.type === "done") return { usage: event.usage };
    if (event.type === "error") return { error: event.error, ...(event.usage ? { usage: event.usage } : {}) };
  }
  // The provider contract ends every stream with done or error; a stream that just stops is a bug there.
  return { error: new ProviderError("provider_response_invalid", `${provider.name} ended a stream without a done or error event.`) };
}

function emptyResult(mode: ContextMode): LiveModeResult {
  return {
    mode,
    dialogues: 0,
    calls: 0,
    errors: 0,
    promptTokens: 0,
    reportedCachedTokens: 0,
    reportedCachedShare: 0,
    ttftMs: { mean: null, median: null, samples: 0 },
  };
}

function mean(values: readonly number[]): number | null {
  return values.length === 0 ? null : values.reduce((sum, value) => sum + value, 0) / values.length;
}

function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
