/**
 * What differs between servers that speak OpenAI's Chat Completions wire format. Everything that
 * varies by vendor lives here, so the converters stay vendor-neutral and take a profile as input.
 */

export const openAICompatibleVendors = [
  "openai",
  "vllm",
  "ollama",
  "llamacpp",
  "deepseek",
  "kimi",
  "glm",
  "openrouter",
] as const;

export type OpenAICompatibleVendor = (typeof openAICompatibleVendors)[number];

/**
 * Whether assistant `reasoning_content` is sent back in later requests. "send" replays the model's
 * reasoning on every assistant turn; "tool-calls" only on turns that call tools (what gpt-oss's
 * harmony format renders); "strip" leaves it out of the wire messages.
 */
export type ReasoningRoundTrip = "send" | "tool-calls" | "strip";

export const reasoningRoundTrips: readonly ReasoningRoundTrip[] = ["send", "tool-calls", "strip"];

/** A vendor's exception for a model family, matched on the model id the server is asked for. */
export interface VendorModelRule {
  /** Matched against the model id (`gpt-oss-20b`, `ggml-org/gpt-oss-120b-GGUF`, `gpt-oss:20b`). */
  model: RegExp;
  reasoningRoundTrip: ReasoningRoundTrip;
}

/** Where the vendor reports prompt tokens served from its cache (documentation only: all are read). */
export type CachedTokensField = "prompt_tokens_details.cached_tokens" | "prompt_cache_hit_tokens" | "usage.cached_tokens" | "timings.cache_n";

export interface VendorProfile {
  vendor: OpenAICompatibleVendor;
  /** Used in error messages: "OpenAI-compatible (deepseek)". */
  label: string;
  defaultBaseURL: string;
  /** Environment variables read for the API key, in order. */
  apiKeyEnvVars: readonly string[];
  /** Hosted APIs reject requests without a key; local servers run without one by default. */
  requiresApiKey: boolean;
  cachedTokensField: CachedTokensField;
  reasoningRoundTrip: ReasoningRoundTrip;
  /**
   * Tool-call turns must carry `reasoning_content` even when their reasoning was empty (sent as "").
   * DeepSeek's thinking mode answers HTTP 400 "The reasoning_content in the thinking mode must be
   * passed back to the API." otherwise (deepseek-ai/deepseek-harness discussions #739, #1850).
   */
  reasoningOnToolCallTurns?: boolean;
  /** Exceptions by model id, first match wins; the settings' own `reasoningRoundTrip` overrides them. */
  modelRules?: readonly VendorModelRule[];
}

/** The reasoning round-trip for `model` on this vendor: the first model rule that matches, else the vendor's. */
export function reasoningRoundTripFor(profile: VendorProfile, model: string): ReasoningRoundTrip {
  return profile.modelRules?.find((rule) => rule.model.test(model))?.reasoningRoundTrip ?? profile.reasoningRoundTrip;
}

function profile(fields: Omit<VendorProfile, "label">): VendorProfile {
  return { ...fields, label: `OpenAI-compatible (${fields.vendor})` };
}

/*
 * Reasoning round-trip, from the facts in ANCHORS.md ("Prompt caching facts"):
 * - DeepSeek (V4-era), Kimi K2 and GLM "require `reasoning_content` of assistant turns to be sent
 *   back when tools are in use (400 otherwise)" → "send". DeepSeek R1 (deepseek-reasoner) "wanted it
 *   stripped": pass `reasoningRoundTrip: "strip"` for that model.
 * - OpenAI's Chat Completions API has no `reasoning_content` message field (o-series reasoning is
 *   hidden and never returned) → "strip".
 * - OpenRouter streams reasoning as `reasoning` / `reasoning_details`, not `reasoning_content`, and
 *   normalises history itself → "strip".
 * - Ollama, vLLM, llama.cpp: the chat template decides what is rendered; Qwen3's template drops the
 *   `<think>` content of turns before the last user query anyway → "strip". Override with "send"
 *   for a local model whose template renders `reasoning_content` inside a tool loop.
 * - gpt-oss on llama.cpp is such a model: its harmony format expects the analysis (chain of thought)
 *   of a tool-calling turn back, and llama-server copies `reasoning_content` of an assistant message
 *   with `tool_calls` into the template's `thinking` field ("Copy reasoning to the "thinking" field as
 *   expected by the gpt-oss template", common/chat.cpp); the template renders it as
 *   `<|channel|>analysis<|message|>…<|end|>` before the call (see fixtures/README.md) → "tool-calls".
 */
export const vendorProfiles: Readonly<Record<OpenAICompatibleVendor, VendorProfile>> = {
  // usage.prompt_tokens_details.cached_tokens (automatic caching of prefixes ≥ 1024 tokens).
  openai: profile({
    vendor: "openai",
    defaultBaseURL: "https://api.openai.com/v1",
    apiKeyEnvVars: ["OPENAI_API_KEY"],
    requiresApiKey: true,
    cachedTokensField: "prompt_tokens_details.cached_tokens",
    reasoningRoundTrip: "strip",
  }),
  // usage.prompt_tokens_details.cached_tokens when started with --enable-prompt-tokens-details.
  vllm: profile({
    vendor: "vllm",
    defaultBaseURL: "http://127.0.0.1:8000/v1",
    apiKeyEnvVars: [],
    requiresApiKey: false,
    cachedTokensField: "prompt_tokens_details.cached_tokens",
    reasoningRoundTrip: "strip",
  }),
  // Ollama's OpenAI layer reports only prompt_tokens / completion_tokens; cached counts stay 0.
  ollama: profile({
    vendor: "ollama",
    defaultBaseURL: "http://127.0.0.1:11434/v1",
    apiKeyEnvVars: [],
    requiresApiKey: false,
    cachedTokensField: "prompt_tokens_details.cached_tokens",
    reasoningRoundTrip: "strip",
  }),
  // llama-server reports prompt-cache reuse in `timings.cache_n` (beside `usage`, which has no cached
  // count in the recorded builds); see fixtures/README.md.
  llamacpp: profile({
    vendor: "llamacpp",
    defaultBaseURL: "http://127.0.0.1:8080/v1",
    apiKeyEnvVars: [],
    requiresApiKey: false,
    cachedTokensField: "timings.cache_n",
    reasoningRoundTrip: "strip",
    modelRules: [{ model: /gpt-oss/i, reasoningRoundTrip: "tool-calls" }],
  }),
  // usage.prompt_cache_hit_tokens / prompt_cache_miss_tokens; prompt_tokens = hit + miss.
  deepseek: profile({
    vendor: "deepseek",
    defaultBaseURL: "https://api.deepseek.com/v1",
    apiKeyEnvVars: ["DEEPSEEK_API_KEY"],
    requiresApiKey: true,
    cachedTokensField: "prompt_cache_hit_tokens",
    reasoningRoundTrip: "send",
    reasoningOnToolCallTurns: true,
  }),
  // usage.cached_tokens; when streaming, Kimi puts `usage` inside the last choice (choices[0].usage).
  // Keys from the China platform need baseURL https://api.moonshot.cn/v1.
  kimi: profile({
    vendor: "kimi",
    defaultBaseURL: "https://api.moonshot.ai/v1",
    apiKeyEnvVars: ["MOONSHOT_API_KEY"],
    requiresApiKey: true,
    cachedTokensField: "usage.cached_tokens",
    reasoningRoundTrip: "send",
  }),
  // usage.prompt_tokens_details.cached_tokens. International (z.ai) keys use https://api.z.ai/api/paas/v4.
  glm: profile({
    vendor: "glm",
    defaultBaseURL: "https://open.bigmodel.cn/api/paas/v4",
    apiKeyEnvVars: ["ZHIPU_API_KEY", "GLM_API_KEY"],
    requiresApiKey: true,
    cachedTokensField: "prompt_tokens_details.cached_tokens",
    reasoningRoundTrip: "send",
  }),
  // usage.prompt_tokens_details.cached_tokens, normalised across the upstream providers.
  openrouter: profile({
    vendor: "openrouter",
    defaultBaseURL: "https://openrouter.ai/api/v1",
    apiKeyEnvVars: ["OPENROUTER_API_KEY"],
    requiresApiKey: true,
    cachedTokensField: "prompt_tokens_details.cached_tokens",
    reasoningRoundTrip: "strip",
  }),
};

export function isOpenAICompatibleVendor(value: unknown): value is OpenAICompatibleVendor {
  return typeof value === "string" && (openAICompatibleVendors as readonly string[]).includes(value);
}
