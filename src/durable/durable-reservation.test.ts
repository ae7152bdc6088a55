import { describe, expect, it } from "vitest";
import { createAnthropic } from "../providers/anthropic/index.js";
import { createOpenAICompatible } from "../providers/openai-compatible/index.js";
import type { Provider } from "../providers/provider.js";
import { getTokenCounter } from "../tokens/get-token-counter.js";
import type { ModelRequest } from "../types/index.js";
import { assumedMaxOutputTokens, createDurableProvider, reservationOf } from "./create-durable-provider.js";
import type { DurableRunContext } from "./durable-run-context.js";
import { sharedBudgetCrossings } from "./shared-budget-crossings.js";

const request = (settings: ModelRequest["settings"] = {}): ModelRequest => ({
  system: { staticText: "You are terse." },
  tools: [],
  messages: [{ role: "user", content: "hi", meta: { id: "user-1", createdAt: "2026-01-01T00:00:00.000Z", origin: "user" } }],
  cacheBreakpoints: [],
  settings,
});
const estimated = (provider: Provider, given: ModelRequest) => getTokenCounter("estimate").count(provider.serialize(given).body);
/** What a reservation holds beyond the prompt's estimate: the most output it counts on. */
const reservedOutput = (provider: Provider, given: ModelRequest) => reservationOf(provider, given, 1_000_000) - estimated(provider, given);
const sentMaxTokens = (provider: Provider, given: ModelRequest) => (JSON.parse(provider.serialize(given).body) as { max_tokens?: number }).max_tokens;

describe("a shared budget's reservation for one model call", () => {
  it("counts on the max_tokens an Anthropic request is sent with when the request sets none", () => {
    for (const anthropic of [createAnthropic({ model: "claude-test", apiKey: "test" }), createAnthropic({ model: "claude-test", apiKey: "test", maxOutputTokens: 2_000 })]) {
      expect(anthropic.maxOutputTokens).toBe(sentMaxTokens(anthropic, request()));
      expect(reservedOutput(anthropic, request())).toBe(sentMaxTokens(anthropic, request()));
      expect(reservedOutput(anthropic, request())).not.toBe(assumedMaxOutputTokens);
    }
  });

  it("counts on the request's own maxOutputTokens when it sets one", () => {
    const anthropic = createAnthropic({ model: "claude-test", apiKey: "test" });
    expect(reservedOutput(anthropic, request({ maxOutputTokens: 300 }))).toBe(300);
    expect(sentMaxTokens(anthropic, request({ maxOutputTokens: 300 }))).toBe(300);
  });

  it("assumes 4 096 output tokens for a provider that sends no limit (the model's own applies), at most the call's maximum", () => {
    const compatible = createOpenAICompatible({ model: "qwen3:8b", baseURL: "http://127.0.0.1:9/v1", apiKey: "test" });
    expect(compatible.maxOutputTokens).toBeUndefined();
    expect(sentMaxTokens(compatible, request())).toBeUndefined();
    expect(reservedOutput(compatible, request())).toBe(assumedMaxOutputTokens);
    expect(reservationOf(compatible, request(), 1_000)).toBe(1_000);
  });

  it("keeps what the loop reads from the provider when a worker wraps it, its default output limit included", () => {
    const anthropic = createAnthropic({ model: "claude-test", apiKey: "test", maxOutputTokens: 2_000 });
    const wrapped = createDurableProvider(anthropic, {} as DurableRunContext, { maxCallTokens: 10_000 });
    expect(wrapped).toMatchObject({ name: anthropic.name, model: anthropic.model, baseURL: anthropic.baseURL, maxOutputTokens: 2_000, cacheLifetimeMs: anthropic.cacheLifetimeMs, compactsOnRequest: true });
  });
});

describe("the thresholds one settlement of a shared budget crosses", () => {
  it("names each threshold between the spend before and after the call, none already passed", () => {
    expect(sharedBudgetCrossings({ limitTokens: 1_000, spentBefore: 700, spentAfter: 960 }, [0.9, 0.8])).toEqual([
      { threshold: 0.8, spentTokens: 960, limitTokens: 1_000 },
      { threshold: 0.9, spentTokens: 960, limitTokens: 1_000 },
    ]);
    expect(sharedBudgetCrossings({ limitTokens: 1_000, spentBefore: 800, spentAfter: 850 }, [0.8])).toEqual([]);
    expect(sharedBudgetCrossings({ limitTokens: 1_000, spentBefore: 799, spentAfter: 800 }, [0.8])).toHaveLength(1);
  });
});
