import { afterEach, describe, expect, it } from "vitest";
import { createModelSummarizer } from "../src/context/compression/model-summarizer.js";
import { createOpenAICompatible } from "../src/providers/openai-compatible/index.js";
import { startLoopbackServer, type LoopbackServer, type RecordedRequest } from "../src/testing/loopback-server.js";

/**
 * A loopback server that answers like OpenAI's API does for its reasoning models, with the error
 * texts real clients recorded (HTTP 400, type invalid_request_error), e.g. in the retry tests of
 * several OpenAI clients found with the code search:
 *   "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead."
 *   "Unsupported value: 'temperature' does not support 0 with this model. Only the default (1) value is supported."
 */
function answerLikeOpenAI(recorded: RecordedRequest) {
  const body = JSON.parse(recorded.body) as Record<string, unknown>;
  const reject = (message: string, param: string) => ({
    status: 400,
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ error: { message, type: "invalid_request_error", param, code: param === "max_tokens" ? "unsupported_parameter" : "unsupported_value" } }),
  });
  if (/^(gpt-5|o[134])/.test(String(body.model))) {
    if ("max_tokens" in body) return reject("Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.", "max_tokens");
    if ("temperature" in body && body.temperature !== 1) {
      return reject(`Unsupported value: 'temperature' does not support ${String(body.temperature)} with this model. Only the default (1) value is supported.`, "temperature");
    }
  }
  return {
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      id: "chatcmpl-1",
      object: "chat.completion",
      created: 1,
      model: body.model,
      choices: [{ index: 0, message: { role: "assistant", content: "## Goal\nRead config.yaml (port 8080).", refusal: null }, finish_reason: "stop" }],
      usage: { prompt_tokens: 120, completion_tokens: 12, total_tokens: 132, prompt_tokens_details: { cached_tokens: 0 }, completion_tokens_details: { reasoning_tokens: 64 } },
    }),
  };
}

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("OpenAI reasoning models", () => {
  it.each(["gpt-5", "gpt-5-mini", "gpt-5.1", "o3", "o4-mini"])("the model summarizer's compaction request is accepted by %s", async (model) => {
    server = await startLoopbackServer(answerLikeOpenAI);
    const provider = createOpenAICompatible({ vendor: "openai", model, baseURL: server.url, apiKey: "sk-test", stream: false, env: {} });
    const summary = await createModelSummarizer(provider).summarize({ purpose: "compaction", sources: [{ label: "read config.yaml", kind: "tool", text: "port: 8080" }], maxTokens: 400 });
    expect(summary).toContain("port 8080");
    const sent = JSON.parse(server.requests[0]!.body) as Record<string, unknown>;
    expect(sent.max_completion_tokens).toBe(600);
    expect(sent).not.toHaveProperty("max_tokens");
    expect(sent).not.toHaveProperty("temperature");
  });

  it("keeps max_tokens and temperature for other OpenAI models and for other vendors serving the same names", () => {
    const settings = { maxOutputTokens: 100, temperature: 0 };
    const body = (vendor: "openai" | "openrouter", model: string) =>
      JSON.parse(createOpenAICompatible({ vendor, model, apiKey: "k", env: {} }).serialize({ system: { staticText: "" }, tools: [], messages: [], cacheBreakpoints: [], settings }).body) as Record<string, unknown>;
    expect(body("openai", "gpt-4o")).toMatchObject({ max_tokens: 100, temperature: 0 });
    expect(body("openai", "gpt-5-chat-latest")).toMatchObject({ max_tokens: 100, temperature: 0 });
    expect(body("openrouter", "openai/gpt-5")).toMatchObject({ max_tokens: 100, temperature: 0 });
    expect(body("openai", "gpt-5.2")).toMatchObject({ max_completion_tokens: 100 });
  });
});
