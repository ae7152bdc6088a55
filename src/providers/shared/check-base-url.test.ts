import { describe, expect, it } from "vitest";
import { createAnthropic } from "../anthropic/create-anthropic.js";
import { createOpenAIEmbedder, type OpenAIEmbedderOptions } from "../openai-compatible/create-openai-embedder.js";
import { createOpenAIResponses } from "../openai-responses/create-openai-responses.js";

// createOpenAICompatible refused these when made; the other providers accepted them and failed every call.
describe("a provider's baseURL is checked when it is made", () => {
  it.each(["localhost:8000", "ftp://example.com/v1"])("createAnthropic and createOpenAIResponses refuse %j with option_invalid naming baseURL", (baseURL) => {
    expect(() => createAnthropic({ model: "claude-sonnet-4-5", apiKey: "k", baseURL })).toThrow(
      expect.objectContaining({ name: "ConfigError", code: "option_invalid", message: expect.stringContaining("createAnthropic: `baseURL`") }),
    );
    expect(() => createOpenAIResponses({ model: "gpt-5", apiKey: "k", baseURL })).toThrow(
      expect.objectContaining({ name: "ConfigError", code: "option_invalid", message: expect.stringContaining("createOpenAIResponses: `baseURL`") }),
    );
  });

  it("accepts an http(s) URL", () => {
    expect(createAnthropic({ model: "claude-sonnet-4-5", apiKey: "k", baseURL: "http://127.0.0.1:8080" }).baseURL).toBe("http://127.0.0.1:8080");
    expect(createOpenAIResponses({ model: "gpt-5", apiKey: "k", baseURL: "http://127.0.0.1:8080/v1/" }).baseURL).toBe("http://127.0.0.1:8080/v1");
  });

  it("createOpenAIEmbedder without a model or a base URL is a ConfigError, not a TypeError", () => {
    expect(() => createOpenAIEmbedder({ baseURL: "http://127.0.0.1:1/v1" } as OpenAIEmbedderOptions)).toThrow(expect.objectContaining({ code: "model_missing" }));
    expect(() => createOpenAIEmbedder({ model: "e" } as OpenAIEmbedderOptions)).toThrow(expect.objectContaining({ code: "option_invalid" }));
  });
});
