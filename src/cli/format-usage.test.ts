import { describe, expect, it } from "vitest";
import { emptyUsage, type Usage } from "../types/index.js";
import { formatUsageLine } from "./format-usage.js";

const call = (inputTokens: number, cachedInputTokens: number): Usage => ({ ...emptyUsage(), inputTokens, cachedInputTokens, outputTokens: 10 });

describe("formatUsageLine", () => {
  it("says the append-only limit is not known on the first call, instead of printing 0.0% beside a warm cache", () => {
    const line = formatUsageLine([call(1000, 959)], 1, "gpt-4.1");
    expect(line).toContain("1,000 prompt tokens (95.9% cached), 10 output, 1 call");
    expect(line).toContain("append-only limit n/a until the second call (it counts reuse between this session's calls)");
    expect(line).not.toContain("limit 0.0%");
  });

  it("explains a cached share above the limit: the provider reused a cache from before the session", () => {
    const line = formatUsageLine([call(1000, 990), call(1100, 1090)], 2, "gpt-4.1");
    expect(line).toMatch(/append-only limit \d+\.\d% cached — above it, the provider reused a cache from before this session/);
  });

  // Seen in `ctxkit chat`: a reply cut mid-stream reports all-zero usage; the limit then read 0.0%
  // and the line blamed a cache "from before this session" in a session started a minute before.
  it("leaves a call that reported no usage out of the limit, and names it as where a cache can come from", () => {
    const line = formatUsageLine([call(1000, 0), { ...emptyUsage() }, call(1100, 1050)], 3, "gpt-4.1");
    expect(line).toContain("3 calls");
    expect(line).toContain("append-only limit 47.6% cached");
    expect(line).toContain("from before this session or from the call that reported no usage (failed or stopped mid-reply)");
  });

  it("adds no note when the cached share is within the limit", () => {
    const line = formatUsageLine([call(1000, 0), call(1100, 900)], 2, "gpt-4.1");
    expect(line).toMatch(/append-only limit \d+\.\d% cached, cost \$/);
  });
});
