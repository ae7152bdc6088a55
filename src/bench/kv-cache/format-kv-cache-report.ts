import type { OfflineKvCacheBenchResult, OfflineModeResult } from "./run-offline-kv-cache-bench.js";
import type { LiveKvCacheBenchResult } from "./run-live-kv-cache-bench.js";
import type { EngineKvCacheBenchResult } from "./run-engine-kv-cache-bench.js";
import { formatDollars, formatInteger, formatPercent, formatTextTable } from "../text-table.js";

/** The offline table: one row per mode. */
export function formatOfflineKvCacheReport(result: OfflineKvCacheBenchResult): string {
  const calls = result.modes[0]?.calls ?? 0;
  const { anthropic, openai } = result.pricing;
  const table = formatTextTable(
    ["mode", "calls", "prompt tokens", "reusable share", "uncached tokens", "cost Anthropic", "cost OpenAI", "breaks@layer"],
    result.modes.map((mode) => [
      mode.mode,
      formatInteger(mode.calls),
      formatInteger(mode.promptTokens),
      formatPercent(mode.reusableShare),
      formatInteger(mode.uncachedTokens),
      formatDollars(mode.cost.anthropic),
      formatDollars(mode.cost.openai),
      describeBreaks(mode),
    ]),
    { leftColumns: [0, 7] },
  );
  return (
    `kv-cache: ${result.dialogues} τ-bench dialogues, ${formatInteger(calls)} model calls per mode, exact Qwen3 tokens\n\n` +
    `${table}\n` +
    `\nreusable share: tokens each call repeats from the start of the previous call of its dialogue (Qwen3 chat template).\n` +
    `cost: prompt side only. Anthropic ${anthropic.model}: whole-message cache reads at $${anthropic.cacheRead}/M, ` +
    `the rest written at $${anthropic.cacheWrite ?? anthropic.input}/M. OpenAI ${openai.model}: cached prefix in 128-token steps ` +
    `from 1,024 at $${openai.cacheRead}/M, the rest at $${openai.input}/M.\n` +
    `breaks@layer: undeclared cache breaks the prefix guard found, and where.\n` +
    `rendering: incremental, checked against a full template render for ${formatInteger(result.rendering.checked)} dialogue×mode pairs ` +
    `(${result.rendering.fullRenderFallbacks} fell back to full renders).\n`
  );
}

function describeBreaks(mode: OfflineModeResult): string {
  const layers = Object.entries(mode.breakLayers).sort(([, left], [, right]) => right - left);
  if (layers.length === 0) return "none";
  return layers.map(([layer, count]) => `${formatInteger(count)}@${layer}`).join(", ");
}

/** The live table: one row per mode. */
export function formatLiveKvCacheReport(result: LiveKvCacheBenchResult): string {
  const milliseconds = (value: number | null) => (value === null ? "-" : `${Math.round(value)} ms`);
  const table = formatTextTable(
    ["mode", "calls", "errors", "TTFT mean", "TTFT median", "prompt tokens", "cached tokens", "cached share"],
    result.modes.map((mode) => [
      mode.mode,
      formatInteger(mode.calls),
      formatInteger(mode.errors),
      milliseconds(mode.ttftMs.mean),
      milliseconds(mode.ttftMs.median),
      formatInteger(mode.promptTokens),
      formatInteger(mode.reportedCachedTokens),
      formatPercent(mode.reportedCachedShare),
    ]),
  );
  const errors = result.modes
    .filter((mode) => mode.firstError !== undefined)
    .map((mode) => `${mode.mode}: ${mode.errors} failed calls, first: ${mode.firstError}\n`)
    .join("");
  return (
    `kv-cache live: ${result.model} via ${result.provider}, ${result.dialogues} τ-bench dialogues per mode\n\n` +
    `${table}\n` +
    `\nTTFT: time to the first streamed token. prompt/cached tokens: as the provider reported them.\n` +
    errors
  );
}

/** The embedded-engine table: per mode the engine's reuse and TTFT next to the offline token-exact reuse. */
export function formatEngineKvCacheReport(result: EngineKvCacheBenchResult): string {
  const milliseconds = (value: number | null) => (value === null ? "-" : `${Math.round(value)} ms`);
  const table = formatTextTable(
    ["mode", "calls", "prompt tokens", "offline reusable", "engine reused", "reuse = predicted", "TTFT median", "TTFT mean", "breaks (guard)"],
    result.modes.map((mode) => [
      mode.mode,
      formatInteger(mode.calls),
      formatInteger(mode.promptTokens),
      formatPercent(mode.offline.reusableShare),
      formatPercent(mode.reusedShare),
      `${mode.reuseAsPredicted}/${mode.calls}`,
      milliseconds(mode.ttftMs.median),
      milliseconds(mode.ttftMs.mean),
      formatInteger(mode.offline.undeclaredBreaks),
    ]),
  );
  const scope = result.callsPerDialogue === null ? "every call" : `the first ${result.callsPerDialogue} calls`;
  return (
    `kv-cache on the embedded engine: ${result.model} via ${result.engine}, ${result.dialogues} τ-bench dialogues (${scope} of each) per mode\n\n` +
    `${table}\n` +
    `\noffline reusable: share of prompt tokens each call repeats from the previous call of its dialogue (exact Qwen3 tokens).\n` +
    `engine reused: share the engine kept in its KV cache on those same calls, as it reported it (cachedInputTokens).\n` +
    `reuse = predicted: calls whose engine reuse equals the common token prefix with the call before it.\n` +
    `TTFT: prefill plus the first token, calls after the first of each dialogue.\n`
  );
}
