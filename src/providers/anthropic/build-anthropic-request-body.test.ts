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
        settings: { temperature: 0.2, maxOutputTokens: 1000, extraBody: { top_k: 20, messages: "ignored", metadata: { user_id: "u1" } } },
      }),
      { ...settings, thinking: { budgetTokens: 2048 } },
      send,
    );
    expect(JSON.stringify(body)).toBe(
      '{"model":"claude-test","max_tokens":1000,"stream":true,"thinking":{"type":"enabled","budget_tokens":2048},"temperature":0.2,' +
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
