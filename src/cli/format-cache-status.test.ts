import { describe, expect, it } from "vitest";
import { formatCacheStatus } from "./format-cache-status.js";
import { findModelPricing } from "../tokens/pricing.js";

describe("/usage's prompt-cache lines", () => {
  it("shows the lifetime and key in force, and none missed", () => {
    expect(formatCacheStatus({ lifetimeMs: 60 * 60_000, key: "s-1", misses: [] })).toBe("prompt cache: lifetime 1h, key s-1\ncache misses: none");
  });

  it("prices each miss at (input − cache-read price) × tokens for the chat's model", () => {
    const pricing = findModelPricing("claude-sonnet-4-5")!;
    const text = formatCacheStatus({
      lifetimeMs: 5 * 60_000,
      model: "claude-sonnet-4-5",
      misses: [{ call: 3, miss: { cause: { kind: "cache_expired", idleMs: 6 * 60_000, lifetimeMs: 5 * 60_000 }, missedTokens: 20_000, summary: "cache expired: 6m since the previous call, past the 5m lifetime: 20,000 tokens re-billed" } }],
    });
    const usd = ((pricing.input - pricing.cacheRead) * 20_000) / 1_000_000;
    expect(text).toBe(`prompt cache: lifetime 5m\ncache misses: 1, $${usd.toFixed(4)} re-billed\n  call 3: cache expired: 6m since the previous call, past the 5m lifetime: 20,000 tokens re-billed ($${usd.toFixed(4)})`);
  });
});
