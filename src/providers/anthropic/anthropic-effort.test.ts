import { afterEach, describe, expect, it } from "vitest";
import { ConfigError } from "../../types/index.js";
import { startLoopbackServer, type LoopbackServer } from "../../testing/loopback-server.js";
import { buildAnthropicRequestBody, type AnthropicBodySettings } from "./build-anthropic-request-body.js";
import { createAnthropic, type AnthropicSettings } from "./create-anthropic.js";
import { collect } from "./test-support/collect.js";
import { anthropicSse, messageDelta, messageStart, messageStop, readFileTool, request, status, user } from "./test-support/fixtures.js";
import { thrown } from "./test-support/thrown.js";

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const settings: AnthropicBodySettings = { model: "claude-test", maxOutputTokens: 8192, cacheTtl: "5m" };
const send = { includeCacheControl: true, includeTail: true };
const withTools = request({ system: { staticText: "S" }, tools: [readFileTool], messages: [user("q")], tail: status("s"), settings: { temperature: 1 } });
// The body as it was sent before efforts existed: a request without one must still send exactly this.
const withoutEffort =
  '{"model":"claude-test","max_tokens":8192,"stream":true,"temperature":1,"system":[{"type":"text","text":"S"}],' +
  '"tools":[{"name":"read_file","description":"Read a file.","input_schema":{"properties":{"path":{"type":"string"}},"required":["path"],"type":"object"}}],' +
  '"messages":[{"role":"user","content":[{"type":"text","text":"q"},{"type":"text","text":"s"}]}]}';

describe("output_config.effort in the request body", () => {
  it("sends no output_config without an effort: the body is byte-identical to the one before efforts", () => {
    expect(JSON.stringify(buildAnthropicRequestBody(withTools, settings, send))).toBe(withoutEffort);
  });

  it("writes output_config after temperature and before the system prompt, from the settings", () => {
    const body = JSON.stringify(buildAnthropicRequestBody(withTools, { ...settings, effort: "low" }, send));
    expect(body).toBe(withoutEffort.replace('"temperature":1,', '"temperature":1,"output_config":{"effort":"low"},'));
  });

  it("takes the request's reasoningEffort over the settings' (a chat's /effort, a resumed session's record)", () => {
    const body = buildAnthropicRequestBody({ ...withTools, settings: { reasoningEffort: "max" } }, { ...settings, effort: "low" }, send);
    expect(body.output_config).toEqual({ effort: "max" });
  });

  it("refuses an effort Anthropic does not take, naming its values", () => {
    const error = thrown(() => buildAnthropicRequestBody({ ...withTools, settings: { reasoningEffort: "minimal" } }, settings, send));
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.code).toBe("option_invalid");
    expect(error.message).toBe(`settings.reasoningEffort must be one of Anthropic's efforts low, medium, high, xhigh, max, got "minimal". Leave it unset for the model's default.`);
  });

  it("merges an extraBody.output_config with the effort, which stays the one in force", () => {
    const format = { type: "json_schema", schema: { type: "object" } };
    const request = { ...withTools, settings: { reasoningEffort: "medium", extraBody: { output_config: { format, effort: "low" } } } };
    expect(buildAnthropicRequestBody(request, settings, send).output_config).toEqual({ format, effort: "medium" });
    // Without an effort, extraBody's value goes out as written.
    expect(buildAnthropicRequestBody({ ...withTools, settings: { extraBody: { output_config: { format } } } }, settings, send).output_config).toEqual({ format });
  });
});

describe("createAnthropic's effort", () => {
  it("names the effort it sends and the ones a request may set", () => {
    expect(createAnthropic({ model: "claude-test", apiKey: "k" })).toMatchObject({ reasoningEffort: "default", reasoningEfforts: ["low", "medium", "high", "xhigh", "max"] });
    expect(createAnthropic({ model: "claude-test", apiKey: "k", effort: "xhigh" }).reasoningEffort).toBe("xhigh");
  });

  it("refuses an unknown effort before any I/O, naming Anthropic's values", () => {
    const error = thrown(() => createAnthropic({ model: "claude-test", apiKey: "k", effort: "minimal" as "low" }));
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.code).toBe("option_invalid");
    expect(error.message).toContain("low, medium, high, xhigh, max");
  });

  async function sent(providerSettings: Partial<AnthropicSettings>, reasoningEffort?: string) {
    server = await startLoopbackServer([anthropicSse([messageStart(), messageDelta("end_turn", 1), messageStop()])]);
    const provider = createAnthropic({ model: "claude-test", apiKey: "k", baseURL: `${server.url}/v1`, ...providerSettings });
    const call = reasoningEffort === undefined ? withTools : { ...withTools, settings: { ...withTools.settings, reasoningEffort } };
    const events = await collect(provider.stream(call));
    return { events, body: server.requests[0]!.body, serialized: provider.serialize(call).body };
  }

  it("sends the provider's effort over the loopback wire, and serializes the same bytes", async () => {
    const { events, body, serialized } = await sent({ effort: "low" });
    expect(events.at(-1)?.type).toBe("done");
    expect(JSON.parse(body)).toMatchObject({ output_config: { effort: "low" } });
    expect(serialized).toContain('"output_config":{"effort":"low"}');
  });

  it("sends a request's effort over the provider's", async () => {
    const { body } = await sent({ effort: "low" }, "high");
    expect(JSON.parse(body)).toMatchObject({ output_config: { effort: "high" } });
  });

  it("sends exactly today's body without an effort", async () => {
    const { body } = await sent({});
    expect(body).toBe(withoutEffort);
  });

  it("ends the stream with a typed error event, not a throw, for a request's unknown effort", async () => {
    server = await startLoopbackServer([]);
    const provider = createAnthropic({ model: "claude-test", apiKey: "k", baseURL: `${server.url}/v1` });
    const events = await collect(provider.stream({ ...withTools, settings: { reasoningEffort: "none" } }));
    expect(events).toEqual([expect.objectContaining({ type: "error", error: expect.objectContaining({ code: "option_invalid" }) })]);
    expect(server.requests).toHaveLength(0);
  });
});
