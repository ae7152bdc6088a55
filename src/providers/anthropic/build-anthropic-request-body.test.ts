import { describe, expect, it } from "vitest";
import { buildAnthropicRequestBody, type AnthropicBodySettings } from "./build-anthropic-request-body.js";
import { readFileTool, request, status, user } from "./test-support/fixtures.js";

const settings: AnthropicBodySettings = { model: "claude-test", maxOutputTokens: 8192, cacheTtl: "5m" };
const send = { includeCacheControl: true, includeTail: true };

describe("buildAnthropicRequestBody", () => {
  it("writes keys in a fixed order with messages last", () => {
    const body = buildAnthropicRequestBody(
      request({
        system: { staticText: "S", sessionText: "U" },
        tools: [readFileTool],
        messages: [user("q")],
        tail: status("s"),
        // With thinking, Anthropic accepts only temperature 1 and max_tokens above the budget.
        settings: { temperature: 1, maxOutputTokens: 4000, extraBody: { top_k: 20, messages: "ignored", metadata: { user_id: "u1" } } },
      }),
      { ...settings, thinking: { budgetTokens: 2048 } },
      send,
    );
    expect(JSON.stringify(body)).toBe(
      '{"model":"claude-test","max_tokens":4000,"stream":true,"thinking":{"type":"enabled","budget_tokens":2048},"temperature":1,' +
        '"top_k":20,"metadata":{"user_id":"u1"},' +
        '"system":[{"type":"text","text":"S"},{"type":"text","text":"U"}],' +
        '"tools":[{"name":"read_file","description":"Read a file.","input_schema":{"properties":{"path":{"type":"string"}},"required":["path"],"type":"object"}}],' +
        '"messages":[{"role":"user","content":[{"type":"text","text":"q"},{"type":"text","text":"s"}]}]}',
    );
  });

  it("uses the default max_tokens and omits empty tools, empty system, thinking and temperature", () => {
    const body = buildAnthropicRequestBody(request({ system: { staticText: "" } }), settings, send);
    expect(JSON.stringify(body)).toBe('{"model":"claude-test","max_tokens":8192,"stream":true,"messages":[{"role":"user","content":[{"type":"text","text":"hi"}]}]}');
  });

  it("adds cache_control only when asked", () => {
    const marked = buildAnthropicRequestBody(request({ cacheBreakpoints: [{ kind: "system_static" }] }), settings, send);
    const plain = buildAnthropicRequestBody(request({ cacheBreakpoints: [{ kind: "system_static" }] }), settings, { ...send, includeCacheControl: false });
    expect(marked.system).toEqual([{ type: "text", text: "You are terse.", cache_control: { type: "ephemeral" } }]);
    expect(plain.system).toEqual([{ type: "text", text: "You are terse." }]);
  });

  it("lets extraBody replace a computed value in place", () => {
    const body = buildAnthropicRequestBody(request({ settings: { extraBody: { max_tokens: 64 } } }), settings, send);
    expect(Object.keys(body).slice(0, 3)).toEqual(["model", "max_tokens", "stream"]);
    expect(body.max_tokens).toBe(64);
  });
});

describe("extended thinking settings the API would reject", () => {
  it("refuses a temperature other than 1 and a max_tokens not above the budget, before sending", async () => {
    const { buildAnthropicRequestBody: build } = await import("./build-anthropic-request-body.js");
    const request = {
      system: { staticText: "s" },
      tools: [],
      messages: [{ role: "user" as const, content: "hi", meta: { id: "u", origin: "user" as const, createdAt: "" } }],
      cacheBreakpoints: [],
      settings: { temperature: 0.2 },
    };
    const settings = { model: "claude", maxOutputTokens: 8192, cacheTtl: "5m" as const, thinking: { budgetTokens: 4096 } };
    expect(() => build(request, settings, { includeCacheControl: true, includeTail: true })).toThrowError(/only temperature 1 with extended thinking/);
    expect(() => build({ ...request, settings: { maxOutputTokens: 2048 } }, settings, { includeCacheControl: true, includeTail: true })).toThrowError(
      /max_tokens \(2048\) must be greater than the thinking budget \(4096\)/,
    );
    expect(build({ ...request, settings: { temperature: 1 } }, settings, { includeCacheControl: true, includeTail: true })).toMatchObject({ temperature: 1, thinking: { type: "enabled", budget_tokens: 4096 } });
  });
});
