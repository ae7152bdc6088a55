import type { Usage } from "../types/index.js";
import catalogFile from "./pricing-catalog.json" with { type: "json" };

// What tokens cost is pure data beside how they are counted: it lives in the tokens layer so that the
// loop (cache-miss dollars), config (budgets) and the session's ledger all import it downwards.

/** Prices in USD per million tokens. */
export interface ModelPricing {
  provider: string;
  /** One of the catalog's cache rules (see `applyCacheRule`); unknown names mean no caching. */
  cacheRule: string;
  input: number;
  cacheRead: number;
  /** 5-minute cache write (Anthropic). Providers with automatic caching charge writes as input. */
  cacheWrite?: number;
  cacheWrite1h?: number;
  output: number;
}

export interface PricingCatalog {
  models: Record<string, ModelPricing>;
  cacheRules?: Record<string, string>;
}

export const defaultPricingCatalog: PricingCatalog = catalogFile as PricingCatalog;

/**
 * Finds a model's prices: the exact name, else the longest catalog name the model starts with
 * ("gpt-4o-2024-08-06" → "gpt-4o", "claude-sonnet-4-5-20250929" → "claude-sonnet-4-5"), also after
 * a vendor prefix ("openai/gpt-4o", "qwen3:8b").
 */
export function findModelPricing(model: string, catalog: PricingCatalog = defaultPricingCatalog): ModelPricing | undefined {
  const name = findModelPricingName(model, catalog);
  return name === undefined ? undefined : catalog.models[name];
}

/** The catalog key `findModelPricing` would use for a model, for showing which prices apply. */
export function findModelPricingName(model: string, catalog: PricingCatalog = defaultPricingCatalog): string | undefined {
  return findModelPricingMatch(model, catalog)?.name;
}

/** Which catalog entry prices a model, and whether it is that model's own entry. */
export interface ModelPricingMatch {
  name: string;
  /**
   * True when the entry belongs to another model: a longer name matched by prefix ("gpt-5.2-pro" →
   * "gpt-5.2"). A vendor prefix, a dated snapshot ("-20250929", "-2025-08-07") or "-latest" is the
   * same model, not a fallback.
   */
  fallback: boolean;
}

const sameModelSuffix = /^(-\d{8}|-\d{4}-\d{2}-\d{2}|-latest|@\d{8}|\[1m\])*$/;

export function findModelPricingMatch(model: string, catalog: PricingCatalog = defaultPricingCatalog): ModelPricingMatch | undefined {
  const name = model.toLowerCase();
  const candidates = [name, name.slice(name.lastIndexOf("/") + 1)];
  for (const candidate of candidates) {
    if (catalog.models[candidate]) return { name: candidate, fallback: false };
    const match = Object.keys(catalog.models)
      .filter((key) => candidate.startsWith(key))
      .sort((left, right) => right.length - left.length)[0];
    if (match) return { name: match, fallback: !sameModelSuffix.test(candidate.slice(match.length)) };
  }
  return undefined;
}

/** The tokens of one call as a provider bills them. `promptTokens` includes cached and written tokens. */
export interface CallTokens {
  promptTokens: number;
  cachedTokens: number;
  cacheWriteTokens: number;
  /** The part of `cacheWriteTokens` written with a 1-hour lifetime, when the provider says (Anthropic). */
  cacheWrite1hTokens?: number;
  outputTokens: number;
}

/** One call's cost in USD, by what it paid for. */
export interface CallCost {
  /** Prompt tokens neither read from nor written to the cache. */
  input: number;
  cacheRead: number;
  cacheWrite: number;
  output: number;
  total: number;
}

export interface CostOptions {
  /**
   * Anthropic's cache lifetime for writes whose lifetime a call does not report: a 1-hour write
   * costs 2× input instead of 1.25×. Default "5m". A call's own `cacheWrite1hTokens` wins.
   */
  cacheWriteTtl?: "5m" | "1h";
}

/**
 * Cost of one call: uncached prompt tokens at the input price, cache reads at the read price, cache
 * writes at the write price (input price where the provider does not charge a premium) and output.
 */
export function costOfCall(tokens: CallTokens, pricing: ModelPricing, options: CostOptions = {}): CallCost {
  const uncached = Math.max(0, tokens.promptTokens - tokens.cachedTokens - tokens.cacheWriteTokens);
  const oneHour = Math.min(tokens.cacheWriteTokens, tokens.cacheWrite1hTokens ?? (options.cacheWriteTtl === "1h" ? tokens.cacheWriteTokens : 0));
  const fiveMinutePrice = pricing.cacheWrite ?? pricing.input;
  const oneHourPrice = pricing.cacheWrite1h ?? fiveMinutePrice;
  const input = (uncached * pricing.input) / 1_000_000;
  const cacheRead = (tokens.cachedTokens * pricing.cacheRead) / 1_000_000;
  const cacheWrite = ((tokens.cacheWriteTokens - oneHour) * fiveMinutePrice + oneHour * oneHourPrice) / 1_000_000;
  const output = (tokens.outputTokens * pricing.output) / 1_000_000;
  return { input, cacheRead, cacheWrite, output, total: input + cacheRead + cacheWrite + output };
}

/** Cost of one call's usage in USD: uncached input, cache reads, cache writes and output at their prices. */
export function estimateCost(usage: Usage, pricing: ModelPricing): number {
  return costOfCall(
    {
      promptTokens: usage.inputTokens,
      cachedTokens: usage.cachedInputTokens,
      cacheWriteTokens: usage.cacheWriteTokens,
      ...(usage.cacheWrite1hTokens === undefined ? {} : { cacheWrite1hTokens: usage.cacheWrite1hTokens }),
      outputTokens: usage.outputTokens,
    },
    pricing,
  ).total;
}
