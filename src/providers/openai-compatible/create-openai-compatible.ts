import type { ModelRequest } from "../../types/index.js";
import type { Provider, SerializedRequest } from "../provider.js";
import { buildOpenAIRequestBody } from "./build-openai-request-body.js";
import { openAICacheKey, resolveOpenAICompatibleSettings, type OpenAICompatibleSettings } from "./openai-compatible-settings.js";
import { streamOpenAICompatible } from "./stream-openai-compatible.js";

/**
 * A provider for any server that speaks OpenAI's Chat Completions API: OpenAI, vLLM, Ollama,
 * llama.cpp server, DeepSeek, Kimi, GLM, OpenRouter. Throws `ConfigError` (`option_invalid`, `model_missing`, `api_key_missing`)
 * here, before any I/O; `stream()` never throws. `serialize()` returns the exact body `stream()`
 * sends, and throws `ToolDefinitionError` / `ConfigError` (`request_invalid`) for a request no vendor accepts.
 */
export function createOpenAICompatible(settings: OpenAICompatibleSettings): Provider {
  const resolved = resolveOpenAICompatibleSettings(settings);
  return {
    specificationVersion: "v1",
    name: `openai-compatible:${resolved.profile.vendor}`,
    model: resolved.model,
    baseURL: resolved.baseURL,
    stream: (request: ModelRequest, signal?: AbortSignal) => streamOpenAICompatible(resolved, request, signal),
    serialize: (request: ModelRequest): SerializedRequest =>
      buildOpenAIRequestBody({
        model: resolved.model,
        vendor: resolved.profile.vendor,
        stream: resolved.stream,
        reasoningRoundTrip: resolved.reasoningRoundTrip,
        request,
        ...openAICacheKey(resolved),
      }),
  };
}
