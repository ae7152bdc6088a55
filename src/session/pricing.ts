import type { Usage } from "../types/index.js";
import catalogFile from "./pricing-catalog.json" with { type: "json" };

/** Prices in USD per million tokens. */
export interface ModelPricing {
  provider: string;
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
  const name = model.toLowerCase();
  const candidates = [name, name.slice(name.lastIndexOf("/") + 1)];
  for (const candidate of candidates) {
    if (catalog.models[candidate]) return catalog.models[candidate];
    const match = Object.keys(catalog.models)
      .filter((key) => candidate.startsWith(key))
      .sort((left, right) => right.length - left.length)[0];
    if (match) return catalog.models[match];
  }
  return undefined;
}

/** Cost of one call's usage in USD: uncached input, cache reads, cache writes and output at their prices. */
export function estimateCost(usage: Usage, pricing: ModelPricing): number {
  const uncached = Math.max(0, usage.inputTokens - usage.cachedInputTokens - usage.cacheWriteTokens);
  const writePrice = pricing.cacheWrite ?? pricing.input;
  return (
    (uncached * pricing.input + usage.cachedInputTokens * pricing.cacheRead + usage.cacheWriteTokens * writePrice + usage.outputTokens * pricing.output) /
    1_000_000
  );
}
