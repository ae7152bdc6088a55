import { describe, expect, it } from "vitest";
import { CtxkitError } from "../../types/index.js";
import { createOpenAICompatible } from "./create-openai-compatible.js";
import type { OpenAICompatibleSettings } from "./openai-compatible-settings.js";
import { resolveOpenAICompatibleSettings } from "./openai-compatible-settings.js";
import { assistant, request, user } from "./test-support/request-fixtures.js";
import { openAICompatibleVendors, vendorProfiles } from "./vendor-profiles.js";

function codeOf(action: () => unknown): string | undefined {
  try {
    action();
  } catch (error) {
    expect(error).toBeInstanceOf(CtxkitError);
    return (error as CtxkitError).code;
  }
  return undefined;
}

describe("createOpenAICompatible", () => {
  it("fails fast with api_key_missing naming the env var and the apiKey setting", () => {
    expect(() => createOpenAICompatible({ vendor: "deepseek", model: "deepseek-chat", env: {} })).toThrowError(
      /DEEPSEEK_API_KEY.*`apiKey`/,
    );
    expect(codeOf(() => createOpenAICompatible({ model: "gpt-4o", env: {} }))).toBe("api_key_missing");
    expect(() => createOpenAICompatible({ vendor: "glm", model: "glm-4.6", env: {} })).toThrowError(/ZHIPU_API_KEY or GLM_API_KEY/);
  });

  it("needs no key for a self-hosted server at a base URL other than the vendor's", () => {
    expect(resolveOpenAICompatibleSettings({ model: "m", baseURL: "http://127.0.0.1:9999/v1", env: {} }).apiKey).toBeUndefined();
    expect(codeOf(() => createOpenAICompatible({ model: "gpt-4o", baseURL: "https://api.openai.com/v1/", env: {} }))).toBe("api_key_missing");
  });

  it("reads the key from the vendor's environment variables and needs none for local servers", () => {
    expect(resolveOpenAICompatibleSettings({ vendor: "glm", model: "glm-4.6", env: { GLM_API_KEY: "g" } }).apiKey).toBe("g");
    expect(resolveOpenAICompatibleSettings({ vendor: "kimi", model: "k", env: { MOONSHOT_API_KEY: "m" } }).apiKey).toBe("m");
    expect(resolveOpenAICompatibleSettings({ vendor: "openai", model: "o", apiKey: "explicit", env: { OPENAI_API_KEY: "env" } }).apiKey).toBe("explicit");
    for (const vendor of ["vllm", "ollama", "llamacpp"] as const) {
      expect(resolveOpenAICompatibleSettings({ vendor, model: "m", env: {} }).apiKey).toBeUndefined();
    }
  });

  it("uses each vendor's default base URL, stripping a trailing slash from an explicit one", () => {
    expect(openAICompatibleVendors.map((vendor) => [vendor, vendorProfiles[vendor].defaultBaseURL])).toEqual([
      ["openai", "https://api.openai.com/v1"],
      ["vllm", "http://127.0.0.1:8000/v1"],
      ["ollama", "http://127.0.0.1:11434/v1"],
      ["llamacpp", "http://127.0.0.1:8080/v1"],
      ["deepseek", "https://api.deepseek.com/v1"],
      ["kimi", "https://api.moonshot.ai/v1"],
      ["glm", "https://open.bigmodel.cn/api/paas/v4"],
      ["openrouter", "https://openrouter.ai/api/v1"],
    ]);
    expect(resolveOpenAICompatibleSettings({ vendor: "vllm", model: "m", env: {} }).baseURL).toBe("http://127.0.0.1:8000/v1");
    expect(resolveOpenAICompatibleSettings({ vendor: "vllm", model: "m", baseURL: "http://gpu:9000/v1//", env: {} }).baseURL).toBe("http://gpu:9000/v1");
  });

  it.each([
    ["an unknown vendor", { vendor: "mistral" as never, model: "m" }],
    ["a missing model", { vendor: "vllm", model: "" }],
    ["a base URL that is not a URL", { vendor: "vllm", model: "m", baseURL: "localhost:8000" }],
    ["a non-boolean stream", { vendor: "vllm", model: "m", stream: "yes" as never }],
    ["a negative retry delay", { vendor: "vllm", model: "m", retry: { initialDelayMs: -1 } }],
    ["an unknown reasoning policy", { vendor: "vllm", model: "m", reasoningRoundTrip: "keep" as never }],
    ["a non-string header", { vendor: "vllm", model: "m", headers: { "x-a": 1 as never } }],
  ] satisfies Array<[string, OpenAICompatibleSettings]>)("rejects %s with a ConfigError", (_case, settings) => {
    expect(codeOf(() => createOpenAICompatible({ ...settings, env: {} }))).toBe(settings.model === "" ? "model_missing" : "option_invalid");
  });

  it("follows the vendor's reasoning policy unless overridden", () => {
    const loop = request({ messages: [user("u", "q"), assistant("a", [{ type: "thinking", thinking: "why" }, { type: "text", text: "answer" }])] });
    const assistantWire = (settings: OpenAICompatibleSettings) => JSON.parse(createOpenAICompatible(settings).serialize(loop).body).messages[2];
    expect(assistantWire({ vendor: "kimi", model: "k", apiKey: "x" })).toEqual({ role: "assistant", content: "answer", reasoning_content: "why" });
    expect(assistantWire({ vendor: "glm", model: "g", apiKey: "x" })).toEqual({ role: "assistant", content: "answer", reasoning_content: "why" });
    expect(assistantWire({ vendor: "openai", model: "o", apiKey: "x" })).toEqual({ role: "assistant", content: "answer" });
    expect(assistantWire({ vendor: "deepseek", model: "deepseek-reasoner", apiKey: "x", reasoningRoundTrip: "strip" })).toEqual({ role: "assistant", content: "answer" });
    expect(assistantWire({ vendor: "llamacpp", model: "q", reasoningRoundTrip: "send" })).toEqual({ role: "assistant", content: "answer", reasoning_content: "why" });
  });

  it("exposes its name and model", () => {
    const provider = createOpenAICompatible({ vendor: "ollama", model: "qwen3:0.6b" });
    expect([provider.name, provider.model]).toEqual(["openai-compatible:ollama", "qwen3:0.6b"]);
  });
});
