import { createCompression, type CompressionPolicy } from "../context/compression/index.js";
import { findModelPricing } from "../tokens/pricing.js";
import type { AgentConfig } from "./agent-config.js";
import type { Provider } from "../providers/provider.js";

/** Used when neither `--context-window` nor the config says: the common size of current API models. */
export const defaultContextWindow = 128_000;

/**
 * The compression policy a command runs with (`--compression`, default `ctxkit`), with its `recall`
 * tool. The agent keeps the blobs under `<data-dir>/blobs/` (see createAgentFromConfig), so previews
 * and stubs stay recallable across restarts. Undefined for `none`.
 */
export function createCompressionFromConfig(config: AgentConfig, provider: Pick<Provider, "maxOutputTokens"> = {}): CompressionPolicy | undefined {
  if (config.compression === "none") return undefined;
  // α (cached ÷ uncached input price) for the cache-economics rule, from the pricing catalog when the model is listed.
  const pricing = config.model ? findModelPricing(config.model) : undefined;
  const reservedOutput = config.maxOutputTokens ?? provider.maxOutputTokens;
  return createCompression({
    policy: config.compression,
    contextWindow: config.contextWindow ?? defaultContextWindow,
    // The answer's room: compress before the context leaves less than the output the request asks for
    // (the provider's own default when the config sets none: Anthropic's max_tokens; the others leave it to the server).
    ...(reservedOutput === undefined ? {} : { reservedOutputTokens: reservedOutput }),
    ...(pricing && pricing.input > 0 ? { cachedPriceRatio: pricing.cacheRead / pricing.input } : {}),
  });
}
