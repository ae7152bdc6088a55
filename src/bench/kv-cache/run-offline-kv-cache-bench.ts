import { createPrefixGuard } from "../../context/prefix-guard/index.js";
import { serializeAsOpenAI } from "./serialize-as-openai.js";
import type { LayerName } from "../../context/prefix-guard/index.js";
import { findModelPricing, type ModelPricing } from "../../tokens/pricing.js";
import { getTokenCounter } from "../../tokens/get-token-counter.js";
import { renderModelRequest } from "../../tokens/count-rendered-prompt.js";
import { createIncrementalQwen3Renderer } from "../../tokens/incremental-qwen3-renderer.js";
import { type ModelRequest, ConfigError } from "../../types/index.js";
import { buildModeRequests, contextModes, expectedBreakLayer, type ContextMode, type Dialogue } from "./context-modes.js";
import { anthropicCacheOutcome, anthropicPromptCost, openAICacheOutcome, openAIPromptCost, type MeasuredCall } from "./prompt-cache-cost.js";
import { createPromptPieceTokenizer, sharedPromptPrefix, type PromptPieces } from "./prompt-piece-tokenizer.js";

export interface OfflineModeResult {
  mode: ContextMode;
  dialogues: number;
  calls: number;
  /** Exact Qwen3 tokens of every rendered request (generation prompt included). */
  promptTokens: number;
  /** Tokens each call repeats from the start of the previous call of its dialogue. */
  reusablePrefixTokens: number;
  uncachedTokens: number;
  reusableShare: number;
  /** What the caches would serve: Anthropic whole messages (≥ 1,024), OpenAI 128-token steps (≥ 1,024). */
  anthropicCacheReadTokens: number;
  openAICachedTokens: number;
  /** Prompt-side cost in USD (output is the same recorded replies in every mode, so it is left out). */
  cost: { anthropic: number; openai: number };
  /** The prefix guard's verdict: undeclared breaks and the layers they hit. */
  undeclaredBreaks: number;
  breakLayers: Partial<Record<LayerName, number>>;
  expectedBreakLayer: string | null;
}

export interface OfflineKvCacheBenchOptions {
  dialogues: readonly Dialogue[];
  modes?: readonly ContextMode[];
  /** Catalog names whose prices are used (default claude-sonnet-4-5 and gpt-4.1). */
  anthropicModel?: string;
  openaiModel?: string;
  /** Called after each dialogue, for progress. */
  onDialogue?: (done: number, total: number) => void;
}

export interface OfflineKvCacheBenchResult {
  dialogues: number;
  tokenizer: "qwen3";
  /**
   * The incremental renderer was checked against a full template render on the last (longest)
   * request of every dialogue and mode; where they differed, that dialogue and mode used full renders.
   */
  rendering: { checked: number; fullRenderFallbacks: number };
  pricing: { anthropic: { model: string } & ModelPricing; openai: { model: string } & ModelPricing };
  modes: OfflineModeResult[];
}

/**
 * Experiment 2-3 offline: every dialogue's requests under each mode, rendered as Qwen3's chat
 * template renders them (with the generation prompt) and tokenized exactly; per mode the prompt
 * tokens, the reusable prefix between consecutive calls, the cost under both vendors' cache rules,
 * and the prefix guard's breaks.
 */
export function runOfflineKvCacheBench(options: OfflineKvCacheBenchOptions): OfflineKvCacheBenchResult {
  const modes = options.modes ?? contextModes;
  const anthropic = pricingOf(options.anthropicModel ?? "claude-sonnet-4-5");
  const openai = pricingOf(options.openaiModel ?? "gpt-4.1");
  const tokenizer = createPromptPieceTokenizer(getTokenCounter("qwen3"));
  const estimate = getTokenCounter("estimate");
  const renderer = createIncrementalQwen3Renderer();
  const rendering = { checked: 0, fullRenderFallbacks: 0 };
  const results = new Map(modes.map((mode) => [mode, emptyResult(mode)]));

  options.dialogues.forEach((dialogue, index) => {
    // Whole messages repeat across the modes of one dialogue, rarely across dialogues.
    tokenizer.forgetSegments();
    for (const mode of modes) {
      const result = results.get(mode)!;
      const guard = createPrefixGuard({ counter: estimate, serialize: serializeAsOpenAI });
      let previous: PromptPieces | undefined;
      result.dialogues++;
      const requests = buildModeRequests(dialogue, mode);
      const last = requests.at(-1);
      const isIncrementalExact = last === undefined || renderer.render(last) === renderModelRequest(last);
      rendering.checked++;
      if (!isIncrementalExact) rendering.fullRenderFallbacks++;
      const render = isIncrementalExact ? renderer.render : (request: ModelRequest) => renderModelRequest(request);
      for (const request of requests) {
        const tokens = tokenizer.tokenize(render(request));
        const shared = previous === undefined ? { tokens: 0, wholeMessageTokens: 0 } : sharedPromptPrefix(previous, tokens);
        previous = tokens;
        addCall(result, { promptTokens: tokens.total, reusablePrefixTokens: shared.tokens, wholeMessageReusableTokens: shared.wholeMessageTokens }, anthropic, openai);
        const cacheBreak = guard.check(request).cacheBreak;
        if (cacheBreak !== undefined && !cacheBreak.declared) {
          result.undeclaredBreaks++;
          result.breakLayers[cacheBreak.layer] = (result.breakLayers[cacheBreak.layer] ?? 0) + 1;
        }
      }
    }
    options.onDialogue?.(index + 1, options.dialogues.length);
  });

  for (const result of results.values()) {
    result.uncachedTokens = result.promptTokens - result.reusablePrefixTokens;
    result.reusableShare = result.promptTokens === 0 ? 0 : result.reusablePrefixTokens / result.promptTokens;
  }
  return { dialogues: options.dialogues.length, tokenizer: "qwen3", rendering, pricing: { anthropic, openai }, modes: [...results.values()] };
}

function addCall(result: OfflineModeResult, call: MeasuredCall, anthropic: ModelPricing, openai: ModelPricing): void {
  result.calls++;
  result.promptTokens += call.promptTokens;
  result.reusablePrefixTokens += call.reusablePrefixTokens;
  result.anthropicCacheReadTokens += anthropicCacheOutcome(call).cachedTokens;
  result.openAICachedTokens += openAICacheOutcome(call).cachedTokens;
  result.cost.anthropic += anthropicPromptCost(call, anthropic);
  result.cost.openai += openAIPromptCost(call, openai);
}

function emptyResult(mode: ContextMode): OfflineModeResult {
  return {
    mode,
    dialogues: 0,
    calls: 0,
    promptTokens: 0,
    reusablePrefixTokens: 0,
    uncachedTokens: 0,
    reusableShare: 0,
    anthropicCacheReadTokens: 0,
    openAICachedTokens: 0,
    cost: { anthropic: 0, openai: 0 },
    undeclaredBreaks: 0,
    breakLayers: {},
    expectedBreakLayer: expectedBreakLayer[mode] ?? null,
  };
}

function pricingOf(model: string): { model: string } & ModelPricing {
  const pricing = findModelPricing(model);
  if (pricing === undefined) {
    throw new ConfigError("model_unpriced", `No price for '${model}' in the pricing catalog. Use a model listed in src/tokens/pricing-catalog.json.`);
  }
  return { model, ...pricing };
}
