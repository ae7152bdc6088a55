import { afterEach, describe, expect, it } from "vitest";
import { ConfigError } from "../../types/index.js";
import { startLoopbackServer, type LoopbackServer } from "../../testing/loopback-server.js";
import { createAnthropic, type AnthropicSettings } from "./create-anthropic.js";
import { collect } from "./test-support/collect.js";
import { anthropicSse, assistant, call, messageDelta, messageStart, messageStop, readFileTool, request, status, toolResult, user } from "./test-support/fixtures.js";
import { thrown } from "./test-support/thrown.js";

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("createAnthropic", () => {
  it("fails fast without an API key, naming the environment variable and the apiKey setting (library advice, not CLI flags)", () => {
    const saved = process.env.ANTHROPIC_API_KEY;
    delete process.env.ANTHROPIC_API_KEY;
    try {
      const error = thrown(() => createAnthropic({ model: "claude-test" }));
      expect(error.code).toBe("api_key_missing");
      expect(error.message).toContain("ANTHROPIC_API_KEY");
      expect(error.message).toContain("`apiKey`");
      expect(error.message).not.toContain("--api-key");
    } finally {
      if (saved !== undefined) process.env.ANTHROPIC_API_KEY = saved;
    }
  });

  it("reads the key from ANTHROPIC_API_KEY", () => {
    const saved = process.env.ANTHROPIC_API_KEY;
    process.env.ANTHROPIC_API_KEY = "from-env";
    try {
      expect(createAnthropic({ model: "claude-test" })).toMatchObject({ name: "anthropic", model: "claude-test" });
    } finally {
      if (saved === undefined) delete process.env.ANTHROPIC_API_KEY;
      else process.env.ANTHROPIC_API_KEY = saved;
    }
  });

  it.each<[string, Partial<AnthropicSettings>, string]>([
    ["an empty model", { model: "" }, "model_missing"],
    ["a thinking budget below 1024", { thinking: { budgetTokens: 500 } }, "option_invalid"],
    ["a thinking budget not below max_tokens", { thinking: { budgetTokens: 4096 }, maxOutputTokens: 4096 }, "option_invalid"],
    ["an unknown cache TTL", { cacheTtl: "10m" as "5m" }, "option_invalid"],
  ])("rejects %s with a ConfigError naming what to fix", (_name, overrides, code) => {
    const error = thrown(() => createAnthropic({ model: "claude-test", apiKey: "k", ...overrides }));
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.code).toBe(code);
  });
});

describe("cache_control in the outgoing body", () => {
  const trajectory = [user("Fix the bug."), assistant(call("toolu_1", '{"path":"a.ts"}')), toolResult("toolu_1", "const a = 1;")];
  const cachedRequest = request({
    system: { staticText: "You are a coding agent.", sessionText: "User: ada" },
    tools: [readFileTool],
    messages: trajectory,
    tail: status("[status] 12:01 · 1 tool call"),
    cacheBreakpoints: [{ kind: "system_static" }, { kind: "prefix" }, { kind: "message", index: 2 }],
  });

  async function sentBody(settings: Partial<AnthropicSettings> = {}) {
    server = await startLoopbackServer([anthropicSse([messageStart(), messageDelta("end_turn", 1), messageStop()])]);
    const provider = createAnthropic({ model: "claude-test", apiKey: "k", baseURL: `${server.url}/v1`, ...settings });
    await collect(provider.stream(cachedRequest));
    return { body: server.requests[0]!.body, serialized: provider.serialize(cachedRequest) };
  }

  it("marks the static system block, the end of the prefix and the last trajectory block — never the tail", async () => {
    const { body } = await sentBody();
    expect(body).toBe(
      '{"model":"claude-test","max_tokens":8192,"stream":true,' +
        '"system":[{"type":"text","text":"You are a coding agent.","cache_control":{"type":"ephemeral"}},' +
        '{"type":"text","text":"User: ada","cache_control":{"type":"ephemeral"}}],' +
        '"tools":[{"name":"read_file","description":"Read a file.","input_schema":{"properties":{"path":{"type":"string"}},"required":["path"],"type":"object"}}],' +
        '"messages":[{"role":"user","content":[{"type":"text","text":"Fix the bug."}]},' +
        '{"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"read_file","input":{"path":"a.ts"}}]},' +
        '{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"const a = 1;","cache_control":{"type":"ephemeral"}},' +
        '{"type":"text","text":"[status] 12:01 · 1 tool call"}]}]}',
    );
  });

  it("writes ttl 1h on every marker with cacheTtl 1h", async () => {
    const { body } = await sentBody({ cacheTtl: "1h" });
    expect(body.match(/"cache_control":\{"type":"ephemeral","ttl":"1h"\}/g)).toHaveLength(3);
    expect(body).not.toContain('"cache_control":{"type":"ephemeral"}');
  });

  it("serializes exactly the sent body without its cache_control markers", async () => {
    const { body, serialized } = await sentBody();
    expect(serialized.body).toBe(body.replace(/,"cache_control":\{"type":"ephemeral"\}/g, ""));
    expect(serialized.body.slice(serialized.prefixLength)).toBe(',{"type":"text","text":"[status] 12:01 · 1 tool call"}]}]}');
  });

  it("sends custom headers and the configured anthropic-version, and honours a custom fetch", async () => {
    server = await startLoopbackServer([anthropicSse([messageStart(), messageDelta("end_turn", 1), messageStop()])]);
    let calls = 0;
    const provider = createAnthropic({
      model: "claude-test",
      apiKey: "k",
      baseURL: `${server.url}/v1/`,
      anthropicVersion: "2024-01-01",
      headers: { "anthropic-beta": "interleaved-thinking-2025-05-14" },
      fetch: (input, init) => {
        calls++;
        return fetch(input, init);
      },
    });
    await collect(provider.stream(request()));
    expect(calls).toBe(1);
    expect(server.requests[0]!.path).toBe("/v1/messages");
    expect(server.requests[0]!.headers["anthropic-version"]).toBe("2024-01-01");
    expect(server.requests[0]!.headers["anthropic-beta"]).toBe("interleaved-thinking-2025-05-14");
  });
});
