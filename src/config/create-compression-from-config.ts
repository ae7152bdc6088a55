import { createCompression, type CompressionPolicy } from "../context/compression/index.js";
import { findModelPricing } from "../tokens/pricing.js";
import type { AgentConfig } from "./agent-config.js";

/** Used when neither `--context-window` nor the config says: the common size of current API models. */
export const defaultContextWindow = 128_000;

/** What the Anthropic provider sends as `max_tokens` when none is set (see createAnthropic). */
const anthropicDefaultMaxOutputTokens = 8192;

/**
 * The compression policy a command runs with (`--compression`, default `ctxkit`), with its `recall`
 * tool. The agent keeps the blobs under `<data-dir>/blobs/` (see createAgentFromConfig), so previews
 * and stubs stay recallable across restarts. Undefined for `none`.
 */
export function createCompressionFromConfig(config: AgentConfig): CompressionPolicy | undefined {
  if (config.compression === "none") return undefined;
  // α (cached ÷ uncached input price) for the cache-economics rule, from the pricing catalog when the model is listed.
  const pricing = config.model ? findModelPricing(config.model) : undefined;
  const reservedOutput = config.maxOutputTokens ?? (config.provider === "anthropic" ? anthropicDefaultMaxOutputTokens : undefined);
  return createCompression({
    policy: config.compression,
    contextWindow: config.contextWindow ?? defaultContextWindow,
    // The answer's room: compress before the context leaves less than the output the request asks for
    // (Anthropic always asks for some: 8,192 unless set; the other providers leave it to the server).
    ...(reservedOutput === undefined ? {} : { reservedOutputTokens: reservedOutput }),
    ...(pricing && pricing.input > 0 ? { cachedPriceRatio: pricing.cacheRead / pricing.input } : {}),
  });
}
