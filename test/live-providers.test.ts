/**
 * Live checks against real model APIs. They run only when asked (CTXKIT_LIVE_TESTS=1) and a key or
 * endpoint is configured; the offline suite never needs them. Examples:
 *   CTXKIT_LIVE_TESTS=1 OPENAI_API_KEY=sk-… npx vitest run test/live-providers.test.ts
 *   CTXKIT_LIVE_TESTS=1 CTXKIT_LIVE_BASE_URL=http://127.0.0.1:11434/v1 CTXKIT_LIVE_VENDOR=ollama CTXKIT_LIVE_MODEL=qwen3:8b npx vitest run test/live-providers.test.ts
 */
import { describe, expect, it } from "vitest";
import { createAgent, defineTool, type Provider } from "../src/index.js";
import { createAnthropic } from "../src/providers/anthropic/index.js";
import { createOpenAICompatible, type OpenAICompatibleVendor } from "../src/providers/openai-compatible/index.js";

const env = process.env;
const live = env.CTXKIT_LIVE_TESTS === "1";

const weather = defineTool<{ city: string }>({
  name: "get_weather",
  description: 'Current weather for a city. Example: {"city": "Vancouver"}',
  parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"], additionalProperties: false },
  parallelSafe: true,
  execute: async ({ city }) => JSON.stringify({ city, temperatureC: 14, conditions: "light rain" }),
});

async function checkToolLoop(provider: Provider): Promise<void> {
  const agent = createAgent({ provider, system: "You answer weather questions using the get_weather tool.", tools: [weather], prefixGuard: { strict: true }, runtime: { maxIterations: 4 } });
  const result = await agent.run("What's the weather in Vancouver right now? Use the tool.").result();
  expect(result.stopReason).toBe("final_answer");
  expect(result.messages.some((message) => message.role === "tool" && message.toolName === "get_weather")).toBe(true);
  expect(result.usage.inputTokens).toBeGreaterThan(0);
  expect(result.finalText.toLowerCase()).toMatch(/14|rain/);
}

describe.skipIf(!live || !env.OPENAI_API_KEY)("live: OpenAI", () => {
  it("runs a tool loop and reports usage", async () => {
    await checkToolLoop(createOpenAICompatible({ model: env.CTXKIT_LIVE_OPENAI_MODEL ?? "gpt-4o-mini" }));
  }, 60_000);
});

describe.skipIf(!live || !env.ANTHROPIC_API_KEY)("live: Anthropic", () => {
  it("runs a tool loop and reports usage", async () => {
    await checkToolLoop(createAnthropic({ model: env.CTXKIT_LIVE_ANTHROPIC_MODEL ?? "claude-haiku-4-5" }));
  }, 60_000);
});

describe.skipIf(!live || !env.CTXKIT_LIVE_BASE_URL || !env.CTXKIT_LIVE_MODEL)("live: OpenAI-compatible server", () => {
  it("runs a tool loop and reports usage", async () => {
    await checkToolLoop(
      createOpenAICompatible({
        vendor: (env.CTXKIT_LIVE_VENDOR ?? "vllm") as OpenAICompatibleVendor,
        baseURL: env.CTXKIT_LIVE_BASE_URL!,
        model: env.CTXKIT_LIVE_MODEL!,
      }),
    );
  }, 120_000);
});
