import type { Provider } from "../../providers/provider.js";
import type { TokenCounter } from "../../tokens/token-counter.js";
import { CtxkitError } from "../../types/errors.js";
import type { ModelRequest } from "../../types/model-request.js";
import type { Usage } from "../../types/usage.js";
import { buildServingWorkload, servingVariants, type ServingVariant } from "./serving-workload.js";

export interface ServingBenchOptions {
  provider: Provider;
  /** Target prompt-prefix sizes in tokens (e.g. 1024, 4096, 8192). */
  prefixSizes: readonly number[];
  /** Repetitions per measurement; medians are reported (default 3). */
  runs?: number;
  /** Parallel requests per level, for servers (e.g. [1, 4, 16]); empty for an embedded engine. */
  concurrency?: readonly number[];
  counter: TokenCounter;
  /** Starts every system prompt, so a server's cache holds nothing from an earlier benchmark. */
  nonce: string;
  /** After each measurement: how many are done of how many, and which one (e.g. "1024 tokens: run 1/3, kept"). */
  onProgress?: (done: number, total: number, step: string) => void;
}

export interface ServingVariantResult {
  variant: ServingVariant;
  ttftMedianMs: number | null;
  /** Median cached prompt tokens the engine or server reported. */
  reusedTokensMedian: number | null;
}

export interface ServingRow {
  /** Prompt tokens of the base request, as the engine reported them. */
  prefixTokens: number;
  targetPrefixTokens: number;
  ttftColdMs: number | null;
  ttftKeptMs: number | null;
  ttftChangedMs: number | null;
  /** `reusedTokens` as the engine reported it on the kept-prefix call. */
  reusedTokens: number | null;
  /** ttftChangedMs / ttftKeptMs. */
  changedOverKept: number | null;
  variants: ServingVariantResult[];
  /** Output tokens per second after the first token, on a kept-prefix call. */
  tokensPerSecond: number | null;
}

export interface ConcurrencyRow {
  prefixTokens: number;
  concurrency: number;
  ttftKeptMedianMs: number | null;
  ttftChangedMedianMs: number | null;
}

export interface ServingBenchResult {
  engine: string;
  model: string;
  runs: number;
  rows: ServingRow[];
  concurrency: ConcurrencyRow[];
  errors: string[];
}

const decodeTokens = 32;

/**
 * Experiment 2-1: time to first token with the prompt prefix kept vs changed. For each size and
 * run, the base request warms the cache, then one variant is sent (one output token): the kept
 * prefix with a new question, the same with a status bar in the tail, and three breaks — the first
 * token of the system prompt changed, a tool reordered, the status bar at the top of the system
 * prompt. Each run's variants are new to the cache. Sequential, so an embedded engine's one
 * sequence sees exactly base → variant.
 */
export async function runServingBench(options: ServingBenchOptions): Promise<ServingBenchResult> {
  const runs = options.runs ?? 3;
  const errors: string[] = [];
  const rows: ServingRow[] = [];
  const concurrency: ConcurrencyRow[] = [];
  const steps = { done: 0, total: options.prefixSizes.length * (1 + runs * servingVariants.length + (options.concurrency ?? []).length) };
  const report = (step: string) => options.onProgress?.(steps.done, steps.total, step);
  const finish = (step: string) => {
    steps.done += 1;
    report(step);
  };
  for (const [sizeIndex, target] of options.prefixSizes.entries()) {
    const workload = buildServingWorkload({ prefixTokens: target, counter: options.counter, seed: 1 + sizeIndex * 7919, nonce: options.nonce });
    report(`${target} tokens: cold prefill`);
    const cold = await send(options.provider, workload.base, 1, errors);
    finish(`${target} tokens: cold prefill`);
    if (cold === undefined && rows.length === 0) throw new CtxkitError("provider_response_invalid", `The first benchmark call failed: ${errors[0]}`);
    const samples = new Map<ServingVariant, Usage[]>(servingVariants.map((variant) => [variant, []]));
    for (let run = 0; run < runs; run += 1) {
      for (const variant of servingVariants) {
        await send(options.provider, workload.base, 1, errors);
        const usage = await send(options.provider, workload.variant(variant, run), 1, errors);
        if (usage) samples.get(variant)!.push(usage);
        finish(`${target} tokens: run ${run + 1}/${runs}, ${variant}`);
      }
    }
    await send(options.provider, workload.base, 1, errors);
    const decode = await send(options.provider, workload.variant("kept", runs), decodeTokens, errors);
    const variants = servingVariants.map((variant): ServingVariantResult => ({
      variant,
      ttftMedianMs: median(samples.get(variant)!.flatMap((usage) => (usage.timeToFirstTokenMs === undefined ? [] : [usage.timeToFirstTokenMs]))),
      reusedTokensMedian: median(samples.get(variant)!.map((usage) => usage.cachedInputTokens)),
    }));
    const kept = variants.find((result) => result.variant === "kept")!;
    const changed = variants.find((result) => result.variant === "first_token_changed")!;
    rows.push({
      prefixTokens: cold?.inputTokens ?? 0,
      targetPrefixTokens: target,
      ttftColdMs: cold?.timeToFirstTokenMs ?? null,
      ttftKeptMs: kept.ttftMedianMs,
      ttftChangedMs: changed.ttftMedianMs,
      reusedTokens: kept.reusedTokensMedian,
      changedOverKept: ratio(changed.ttftMedianMs, kept.ttftMedianMs),
      variants,
      tokensPerSecond: tokensPerSecond(decode),
    });
    for (const level of options.concurrency ?? []) {
      concurrency.push(await measureConcurrency(options.provider, workload, level, errors, cold?.inputTokens ?? 0));
      finish(`${target} tokens: concurrency ${level}`);
    }
  }
  return { engine: options.provider.name, model: options.provider.model, runs, rows, concurrency, errors };
}

async function measureConcurrency(
  provider: Provider,
  workload: ReturnType<typeof buildServingWorkload>,
  level: number,
  errors: string[],
  prefixTokens: number,
): Promise<ConcurrencyRow> {
  await send(provider, workload.base, 1, errors);
  // Run numbers past the sequential runs' keep every request new to the cache.
  const offset = 1000 * level;
  const batch = async (variant: ServingVariant) =>
    Promise.all(Array.from({ length: level }, (_, index) => send(provider, workload.variant(variant, offset + index), 1, errors)));
  const kept = await batch("kept");
  const changed = await batch("first_token_changed");
  const ttfts = (usages: Array<Usage | undefined>) => usages.flatMap((usage) => (usage?.timeToFirstTokenMs === undefined ? [] : [usage.timeToFirstTokenMs]));
  return { prefixTokens, concurrency: level, ttftKeptMedianMs: median(ttfts(kept)), ttftChangedMedianMs: median(ttfts(changed)) };
}

async function send(provider: Provider, request: ModelRequest, maxOutputTokens: number, errors: string[]): Promise<Usage | undefined> {
  const limited = { ...request, settings: { ...request.settings, maxOutputTokens, temperature: 0 } };
  for await (const event of provider.stream(limited)) {
    if (event.type === "done") return event.usage;
    if (event.type === "error") {
      errors.push(event.error.message);
      return undefined;
    }
  }
  return undefined;
}

function tokensPerSecond(usage: Usage | undefined): number | null {
  if (usage?.latencyMs === undefined || usage.timeToFirstTokenMs === undefined || usage.outputTokens < 2) return null;
  const decodeMs = usage.latencyMs - usage.timeToFirstTokenMs;
  return decodeMs > 0 ? Math.round(((usage.outputTokens - 1) * 1000) / decodeMs) : null;
}

export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function ratio(numerator: number | null, denominator: number | null): number | null {
  if (numerator === null || denominator === null || denominator <= 0) return null;
  return Math.round((numerator / denominator) * 10) / 10;
}
