import { afterEach, describe, expect, it } from "vitest";
import { startLoopbackServer, type LoopbackServer } from "../../testing/loopback-server.js";
import type { Usage } from "../../types/index.js";
import { createOpenAICompatible } from "./create-openai-compatible.js";
import { collect, request, sseHeaders, withoutTimings } from "./test-support/request-fixtures.js";
import type { OpenAICompatibleVendor } from "./vendor-profiles.js";

/**
 * Each vendor's streamed answer "Hi there", written the way that vendor sends it, ending with its
 * usage report in its own place and its own field names.
 */
const data = (value: unknown) => `data: ${JSON.stringify(value)}\n\n`;
const done = "data: [DONE]\n\n";

const vendorStreams: Record<OpenAICompatibleVendor, { chunks: string[]; usage: Omit<Usage, "timeToFirstTokenMs" | "latencyMs"> }> = {
  openai: {
    chunks: [
      data({ id: "chatcmpl-1", object: "chat.completion.chunk", created: 1, model: "gpt-4o-mini", system_fingerprint: "fp_1", choices: [{ index: 0, delta: { role: "assistant", content: "", refusal: null }, logprobs: null, finish_reason: null }], usage: null }),
      data({ id: "chatcmpl-1", object: "chat.completion.chunk", created: 1, model: "gpt-4o-mini", system_fingerprint: "fp_1", choices: [{ index: 0, delta: { content: "Hi" }, logprobs: null, finish_reason: null }], usage: null }),
      data({ id: "chatcmpl-1", object: "chat.completion.chunk", created: 1, model: "gpt-4o-mini", system_fingerprint: "fp_1", choices: [{ index: 0, delta: { content: " there" }, logprobs: null, finish_reason: null }], usage: null }),
      data({ id: "chatcmpl-1", object: "chat.completion.chunk", created: 1, model: "gpt-4o-mini", system_fingerprint: "fp_1", choices: [{ index: 0, delta: {}, logprobs: null, finish_reason: "stop" }], usage: null }),
      data({ id: "chatcmpl-1", object: "chat.completion.chunk", created: 1, model: "gpt-4o-mini", system_fingerprint: "fp_1", choices: [], usage: { prompt_tokens: 2048, completion_tokens: 3, total_tokens: 2051, prompt_tokens_details: { cached_tokens: 1920, audio_tokens: 0 }, completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 } } }),
      done,
    ],
    usage: { inputTokens: 2048, cachedInputTokens: 1920, cacheWriteTokens: 0, outputTokens: 3, reasoningTokens: 0 },
  },
  vllm: {
    chunks: [
      data({ id: "chatcmpl-v", object: "chat.completion.chunk", created: 1, model: "Qwen/Qwen3-8B", choices: [{ index: 0, delta: { role: "assistant", content: "" }, logprobs: null, finish_reason: null }] }),
      data({ id: "chatcmpl-v", object: "chat.completion.chunk", created: 1, model: "Qwen/Qwen3-8B", choices: [{ index: 0, delta: { content: "Hi" }, logprobs: null, finish_reason: null }] }),
      data({ id: "chatcmpl-v", object: "chat.completion.chunk", created: 1, model: "Qwen/Qwen3-8B", choices: [{ index: 0, delta: { content: " there" }, logprobs: null, finish_reason: "stop", stop_reason: null }] }),
      data({ id: "chatcmpl-v", object: "chat.completion.chunk", created: 1, model: "Qwen/Qwen3-8B", choices: [], usage: { prompt_tokens: 300, total_tokens: 302, completion_tokens: 2, prompt_tokens_details: { cached_tokens: 256 } } }),
      done,
    ],
    usage: { inputTokens: 300, cachedInputTokens: 256, cacheWriteTokens: 0, outputTokens: 2, reasoningTokens: 0 },
  },
  ollama: {
    // Ollama's OpenAI layer reports no cached tokens.
    chunks: [
      data({ id: "chatcmpl-42", object: "chat.completion.chunk", created: 1, model: "qwen3:0.6b", system_fingerprint: "fp_ollama", choices: [{ index: 0, delta: { role: "assistant", content: "Hi" }, finish_reason: null }] }),
      data({ id: "chatcmpl-42", object: "chat.completion.chunk", created: 1, model: "qwen3:0.6b", system_fingerprint: "fp_ollama", choices: [{ index: 0, delta: { role: "assistant", content: " there" }, finish_reason: null }] }),
      data({ id: "chatcmpl-42", object: "chat.completion.chunk", created: 1, model: "qwen3:0.6b", system_fingerprint: "fp_ollama", choices: [{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: "stop" }] }),
      data({ id: "chatcmpl-42", object: "chat.completion.chunk", created: 1, model: "qwen3:0.6b", system_fingerprint: "fp_ollama", choices: [], usage: { prompt_tokens: 40, completion_tokens: 2, total_tokens: 42 } }),
      done,
    ],
    usage: { inputTokens: 40, cachedInputTokens: 0, cacheWriteTokens: 0, outputTokens: 2, reasoningTokens: 0 },
  },
  llamacpp: {
    // llama-server puts usage (and its own timings) on the chunk that carries finish_reason; cache hits only in timings.cache_n.
    chunks: [
      data({ choices: [{ finish_reason: null, index: 0, delta: { role: "assistant", content: null } }], created: 1, id: "chatcmpl-l", model: "qwen3", system_fingerprint: "b6000", object: "chat.completion.chunk" }),
      data({ choices: [{ finish_reason: null, index: 0, delta: { content: "Hi" } }], created: 1, id: "chatcmpl-l", model: "qwen3", system_fingerprint: "b6000", object: "chat.completion.chunk" }),
      data({ choices: [{ finish_reason: null, index: 0, delta: { content: " there" } }], created: 1, id: "chatcmpl-l", model: "qwen3", system_fingerprint: "b6000", object: "chat.completion.chunk" }),
      data({ choices: [{ finish_reason: "stop", index: 0, delta: {} }], created: 1, id: "chatcmpl-l", model: "qwen3", system_fingerprint: "b6000", object: "chat.completion.chunk", usage: { completion_tokens: 2, prompt_tokens: 500, total_tokens: 502 }, timings: { cache_n: 480, prompt_n: 20, predicted_n: 2 } }),
      done,
    ],
    usage: { inputTokens: 500, cachedInputTokens: 480, cacheWriteTokens: 0, outputTokens: 2, reasoningTokens: 0 },
  },
  deepseek: {
    chunks: [
      data({ id: "ds-1", object: "chat.completion.chunk", created: 1, model: "deepseek-chat", system_fingerprint: "fp_ds", choices: [{ index: 0, delta: { role: "assistant", content: "" }, logprobs: null, finish_reason: null }] }),
      data({ id: "ds-1", object: "chat.completion.chunk", created: 1, model: "deepseek-chat", system_fingerprint: "fp_ds", choices: [{ index: 0, delta: { content: "Hi" }, logprobs: null, finish_reason: null }] }),
      data({ id: "ds-1", object: "chat.completion.chunk", created: 1, model: "deepseek-chat", system_fingerprint: "fp_ds", choices: [{ index: 0, delta: { content: " there" }, logprobs: null, finish_reason: "stop" }] }),
      data({ id: "ds-1", object: "chat.completion.chunk", created: 1, model: "deepseek-chat", system_fingerprint: "fp_ds", choices: [], usage: { prompt_tokens: 1500, completion_tokens: 2, total_tokens: 1502, prompt_cache_hit_tokens: 1280, prompt_cache_miss_tokens: 220 } }),
      done,
    ],
    usage: { inputTokens: 1500, cachedInputTokens: 1280, cacheWriteTokens: 0, outputTokens: 2, reasoningTokens: 0 },
  },
  kimi: {
    // Kimi streams usage inside the last choice, with cached_tokens at the top of usage.
    chunks: [
      data({ id: "chatcmpl-k", object: "chat.completion.chunk", created: 1, model: "kimi-k2-0905-preview", choices: [{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }] }),
      data({ id: "chatcmpl-k", object: "chat.completion.chunk", created: 1, model: "kimi-k2-0905-preview", choices: [{ index: 0, delta: { content: "Hi" }, finish_reason: null }] }),
      data({ id: "chatcmpl-k", object: "chat.completion.chunk", created: 1, model: "kimi-k2-0905-preview", choices: [{ index: 0, delta: { content: " there" }, finish_reason: null }] }),
      data({ id: "chatcmpl-k", object: "chat.completion.chunk", created: 1, model: "kimi-k2-0905-preview", choices: [{ index: 0, delta: {}, finish_reason: "stop", usage: { prompt_tokens: 900, completion_tokens: 2, total_tokens: 902, cached_tokens: 768 } }] }),
      done,
    ],
    usage: { inputTokens: 900, cachedInputTokens: 768, cacheWriteTokens: 0, outputTokens: 2, reasoningTokens: 0 },
  },
  glm: {
    // GLM sends usage on its last choice chunk, next to finish_reason.
    chunks: [
      data({ id: "glm-1", created: 1, model: "glm-4.6", choices: [{ index: 0, delta: { role: "assistant", content: "Hi" } }] }),
      data({ id: "glm-1", created: 1, model: "glm-4.6", choices: [{ index: 0, delta: { role: "assistant", content: " there" } }] }),
      data({ id: "glm-1", created: 1, model: "glm-4.6", choices: [{ index: 0, finish_reason: "stop", delta: { role: "assistant", content: "" } }], usage: { prompt_tokens: 700, completion_tokens: 2, total_tokens: 702, prompt_tokens_details: { cached_tokens: 640 } } }),
      done,
    ],
    usage: { inputTokens: 700, cachedInputTokens: 640, cacheWriteTokens: 0, outputTokens: 2, reasoningTokens: 0 },
  },
  openrouter: {
    // OpenRouter sends ": OPENROUTER PROCESSING" comments while the upstream provider warms up.
    chunks: [
      ": OPENROUTER PROCESSING\n\n",
      data({ id: "gen-1", provider: "OpenAI", model: "openai/gpt-4o-mini", object: "chat.completion.chunk", created: 1, choices: [{ index: 0, delta: { role: "assistant", content: "Hi" }, finish_reason: null, native_finish_reason: null, logprobs: null }] }),
      data({ id: "gen-1", provider: "OpenAI", model: "openai/gpt-4o-mini", object: "chat.completion.chunk", created: 1, choices: [{ index: 0, delta: { role: "assistant", content: " there" }, finish_reason: "stop", native_finish_reason: "stop", logprobs: null }] }),
      data({ id: "gen-1", provider: "OpenAI", model: "openai/gpt-4o-mini", object: "chat.completion.chunk", created: 1, choices: [], usage: { prompt_tokens: 1200, completion_tokens: 2, total_tokens: 1202, cost: 0.0002, prompt_tokens_details: { cached_tokens: 1024 }, completion_tokens_details: { reasoning_tokens: 0 } } }),
      done,
    ],
    usage: { inputTokens: 1200, cachedInputTokens: 1024, cacheWriteTokens: 0, outputTokens: 2, reasoningTokens: 0 },
  },
};

const keyFor: Record<OpenAICompatibleVendor, { env: Record<string, string>; authorization?: string }> = {
  openai: { env: { OPENAI_API_KEY: "sk-openai" }, authorization: "Bearer sk-openai" },
  vllm: { env: {} },
  ollama: { env: {} },
  llamacpp: { env: {} },
  deepseek: { env: { DEEPSEEK_API_KEY: "sk-deepseek" }, authorization: "Bearer sk-deepseek" },
  kimi: { env: { MOONSHOT_API_KEY: "sk-kimi" }, authorization: "Bearer sk-kimi" },
  glm: { env: { GLM_API_KEY: "glm-key" }, authorization: "Bearer glm-key" },
  openrouter: { env: { OPENROUTER_API_KEY: "sk-or" }, authorization: "Bearer sk-or" },
};

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe.each(Object.keys(vendorStreams) as OpenAICompatibleVendor[])("vendor %s", (vendor) => {
  it("streams text and reads the vendor's usage report, including cached tokens", async () => {
    server = await startLoopbackServer([{ headers: sseHeaders, chunks: vendorStreams[vendor].chunks }]);
    const provider = createOpenAICompatible({ vendor, model: "test-model", baseURL: `${server.url}/v1`, env: keyFor[vendor].env });
    const events = await collect(provider.stream(request()));

    expect(withoutTimings(events)).toEqual([
      { type: "start" },
      { type: "text_start", index: 0 },
      { type: "text_delta", index: 0, delta: "Hi" },
      { type: "text_delta", index: 0, delta: " there" },
      { type: "text_end", index: 0 },
      // The id the vendor gave the response and the model that answered (traces report both).
      { type: "done", response: { content: [{ type: "text", text: "Hi there" }], stopReason: "stop", rawStopReason: "stop", id: expect.any(String), model: expect.any(String) }, usage: vendorStreams[vendor].usage },
    ]);
    const recorded = server.requests[0];
    expect(recorded?.path).toBe("/v1/chat/completions");
    expect(recorded?.headers.authorization).toBe(keyFor[vendor].authorization);
    expect(recorded?.body).toBe(provider.serialize(request()).body);
    expect(provider.name).toBe(`openai-compatible:${vendor}`);
  });
});
