import { describe, expect, it } from "vitest";
import { getTokenCounter } from "../../tokens/get-token-counter.js";
import type { Message, ModelRequest } from "../../types/index.js";
import { createPrefixGuard } from "./prefix-guard.js";

const meta = (id: string) => ({ id, origin: "user" as const, createdAt: "2026-01-01T00:00:00.000Z" });
const user = (id: string, content: string): Message => ({ role: "user", content, meta: meta(id) });
const request = (staticText: string, messages: Message[], tail?: string): ModelRequest => ({
  system: { staticText },
  tools: [{ name: "a", description: "A.", parameters: { type: "object" } }],
  messages,
  ...(tail ? { tail: { role: "user", content: tail, meta: { id: `tail-${tail}`, origin: "harness", createdAt: "" } } } : {}),
  cacheBreakpoints: [],
  settings: {},
});

describe("prefix guard", () => {
  it("reports the previous body as reusable when a request only appends and changes its tail", () => {
    const guard = createPrefixGuard({ counter: getTokenCounter("o200k"), strict: true });
    const first = guard.check(request("You are helpful.", [user("1", "hello")], "status 1"));
    const second = guard.check(request("You are helpful.", [user("1", "hello"), user("2", "more")], "status 2"));
    expect(first.reusablePrefixTokens).toBe(0);
    expect(second.cacheBreak).toBeUndefined();
    // Everything of the first request except its tail is reused.
    expect(second.reusablePrefixTokens).toBe(first.promptTokens - getTokenCounter("o200k").count(JSON.stringify({ role: "user", content: "status 1" })));
  });

  it("names the layer, first differing byte and token, and the lost tokens of an edited system prompt", () => {
    const counter = getTokenCounter("o200k");
    const guard = createPrefixGuard({ counter });
    guard.check(request("Time: 10:30. You are helpful.", [user("1", "hello")]));
    const { cacheBreak, promptTokens, reusablePrefixTokens } = guard.check(request("Time: 10:31. You are helpful.", [user("1", "hello"), user("2", "x")]));
    expect(cacheBreak).toMatchObject({ layer: "system_static", index: 0, firstDifferingByte: 10, declared: false });
    expect(cacheBreak!.firstDifferingToken).toBe(reusablePrefixTokens);
    // The system prompt is the first layer, so the reusable prefix is the tokens the two versions share.
    const before = counter.encode!("Time: 10:30. You are helpful.");
    const after = counter.encode!("Time: 10:31. You are helpful.");
    const shared = before.findIndex((token, index) => token !== after[index]);
    expect(shared).toBeGreaterThan(0);
    expect(reusablePrefixTokens).toBe(shared);
    expect(cacheBreak!.lostTokens).toBeGreaterThan(0);
    expect(promptTokens).toBeGreaterThan(reusablePrefixTokens);
    expect(cacheBreak!.excerpt.previous).toContain("10:30");
    expect(cacheBreak!.excerpt.next).toContain("10:31");
  });

  it("finds deleted history at the first removed message", () => {
    const guard = createPrefixGuard({ counter: getTokenCounter("estimate") });
    guard.check(request("s", [user("1", "a"), user("2", "b"), user("3", "c")]));
    const { cacheBreak } = guard.check(request("s", [user("2", "b"), user("3", "c"), user("4", "d")]));
    expect(cacheBreak).toMatchObject({ layer: "message", index: 0 });
  });

  it("records a declared break with its reason and does not throw in strict mode", () => {
    const guard = createPrefixGuard({ counter: getTokenCounter("estimate"), strict: true });
    guard.check(request("s", [user("1", "long history")]));
    const { cacheBreak } = guard.check(request("s", [user("9", "summary")]), { reason: "compaction" });
    expect(cacheBreak).toMatchObject({ declared: true, reason: "compaction", layer: "message", index: 0 });
  });

  it("throws a prefix_break error naming the layer in strict mode", () => {
    const guard = createPrefixGuard({ counter: getTokenCounter("estimate"), strict: true });
    guard.check(request("s", [user("1", "a")]));
    expect(() => guard.check(request("s", [user("1", "A")]))).toThrowError(/Undeclared cache break in message\[0\] at byte/);
  });

  it("ignores ctxkit's own metadata, which no provider sends", () => {
    const guard = createPrefixGuard({ counter: getTokenCounter("estimate"), strict: true });
    guard.check(request("s", [user("1", "a")]));
    expect(guard.check(request("s", [{ ...user("other-id", "a"), meta: { id: "x", origin: "harness", createdAt: "later" } }])).cacheBreak).toBeUndefined();
  });
});
