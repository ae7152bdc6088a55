import type { AnthropicSettings } from "../providers/anthropic/index.js";
import type { LlamaProviderOptions } from "../providers/llama/index.js";
import type { OpenAICompatibleSettings } from "../providers/openai-compatible/index.js";
import type { OpenAIResponsesSettings } from "../providers/openai-responses/index.js";
import { minimumCompactionTrigger } from "../providers/anthropic/anthropic-context-management.js";
import { ConfigError } from "../types/index.js";
import type { AgentConfig } from "./agent-config.js";
import { checkedReasoningEffort } from "./provider-reasoning-effort.js";

export interface ProviderFromConfigOptions {
  /** The provider's transport (the CLI's --log-requests wraps it). */
  fetch?: typeof globalThis.fetch;
  /** The session's id, read on each call: without a `cacheKey` it is the prompt-cache key, known once the session has started. */
  sessionId?: () => string | undefined;
}

/** The provider a config names, and the settings it is created with. */
export type ProviderChoice =
  | { provider: "llama"; settings: LlamaProviderOptions }
  | { provider: "openai-responses"; settings: OpenAIResponsesSettings }
  | { provider: "anthropic"; settings: AnthropicSettings }
  | { provider: "openai-compatible"; settings: OpenAICompatibleSettings };

/**
 * The settings of the provider a config names. Types only from the providers: the caller imports
 * the one provider it creates (`ctxkit run` loads no other provider's modules).
 */
export function providerSettingsFromConfig(config: AgentConfig, options: ProviderFromConfigOptions = {}): ProviderChoice {
  const transport = options.fetch ? { fetch: options.fetch } : {};
  if (config.provider === "llama") {
    if (!config.modelPath) throw new ConfigError("option_invalid", "The llama provider needs a model file. Set modelPath to a .gguf file.");
    return { provider: "llama", settings: { modelPath: config.modelPath, ...(config.model ? { model: config.model } : {}), ...(config.contextWindow ? { contextSize: config.contextWindow } : {}) } };
  }
  if (!config.model) {
    throw new ConfigError(
      "model_missing",
      "No model is set. Set model in the settings (e.g. { model: \"qwen3:8b\" } for Ollama), or add \"model\" to ctxkit.config.json.",
    );
  }
  // The cache key in force: --cache-key, else the session's id (read on each call, so a new session's id counts once it exists).
  const cacheKey = () => config.cache.key ?? options.sessionId?.();
  if (config.provider === "openai-responses") {
    return {
      provider: "openai-responses",
      settings: {
        model: config.model,
        timeouts: config.timeouts,
        promptCacheKey: cacheKey,
        ...(config.cache.retention ? { promptCacheRetention: config.cache.retention } : {}),
        ...(config.reasoningEffort ? { reasoning: { effort: checkedReasoningEffort("openai-responses", config.reasoningEffort) } } : {}),
        ...(config.compactThreshold ? { compactThreshold: config.compactThreshold } : {}),
        // Deferred tools go to the API's own tool search (defer_loading, {"type":"tool_search"}):
        // assembleAgent sees provider.nativeToolSearch and sends them as request.deferredTools.
        ...(config.deferTools !== undefined && config.deferTools !== "off" ? { toolSearch: true } : {}),
        ...(config.apiKey ? { apiKey: config.apiKey } : {}),
        ...(config.baseURL ? { baseURL: config.baseURL } : {}),
        ...transport,
      },
    };
  }
  if (config.provider === "anthropic") {
    const threshold = config.compactThreshold;
    if (threshold !== undefined && threshold < minimumCompactionTrigger) {
      throw new ConfigError("option_invalid", `compactThreshold must be at least ${minimumCompactionTrigger} with provider "anthropic" (the API's lowest compaction trigger), got ${threshold}.`);
    }
    return {
      provider: "anthropic",
      settings: {
        model: config.model,
        timeouts: config.timeouts,
        cacheTtl: config.cache.ttl,
        ...(config.reasoningEffort ? { effort: checkedReasoningEffort("anthropic", config.reasoningEffort) } : {}),
        // compact_20260112 past the threshold; chat's /compact asks for it on one call whatever the threshold.
        ...(threshold === undefined ? {} : { contextManagement: { compact: { trigger: { type: "input_tokens" as const, value: threshold } } } }),
        ...(config.apiKey ? { apiKey: config.apiKey } : {}),
        ...(config.baseURL ? { baseURL: config.baseURL } : {}),
        ...transport,
      },
    };
  }
  return {
    provider: "openai-compatible",
    settings: {
      vendor: config.vendor,
      model: config.model,
      timeouts: config.timeouts,
      cacheKey,
      ...(config.reasoningRoundTrip ? { reasoningRoundTrip: config.reasoningRoundTrip } : {}),
      ...(config.apiKey ? { apiKey: config.apiKey } : {}),
      ...(config.baseURL ? { baseURL: config.baseURL } : {}),
      ...transport,
    },
  };
}
