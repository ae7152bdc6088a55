import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { importOpenAILog } from "./import-openai-log.js";

const file = "fixtures/openai-log.jsonl";
const text = readFileSync(new URL(file, import.meta.url), "utf8");

describe("importOpenAILog", () => {
  const { transcripts, problems } = importOpenAILog(text, file);
  const [transcript] = transcripts;
  const calls = transcript?.calls ?? [];

  it("imports one call per request line, in every accepted line shape", () => {
    expect(transcript).toMatchObject({ id: "openai-log", format: "openai-log", model: "gpt-4o-mini", systemKnown: true, toolsKnown: true });
    expect(calls.map((call) => call.source.line)).toEqual([1, 2, 4]);
  });

  it("turns the leading system message into the system prompt and keeps the rest as the trajectory", () => {
    const request = calls[2]?.request;
    expect(request?.system).toEqual({ staticText: "You are a weather assistant. Answer in one sentence." });
    expect(request?.tools).toEqual([
      { name: "get_weather", description: "Current weather for a city.", parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } },
    ]);
    expect(request?.messages.map((message) => message.role)).toEqual(["user", "assistant", "tool", "assistant", "user"]);
    expect(request?.messages[1]).toMatchObject({
      content: [{ type: "tool_call", id: "call_Qx81", name: "get_weather", argumentsText: '{"city":"Lisbon"}', arguments: { city: "Lisbon" } }],
      meta: { origin: "model" },
    });
    // The tool message names no tool; the name comes from the call it answers.
    expect(request?.messages[2]).toMatchObject({ role: "tool", toolCallId: "call_Qx81", toolName: "get_weather", isError: false });
    expect(request).toMatchObject({ cacheBreakpoints: [], settings: {} });
  });

  it("keeps the id (and object) of a message identical to the one at the same position in the previous line", () => {
    const [first, second, third] = calls.map((call) => call.request.messages);
    expect(second?.[0]).toBe(first?.[0]);
    expect(third?.[0]).toBe(first?.[0]);
    expect(third?.[1]).toBe(second?.[1]);
    expect(third?.[1]?.meta.id).toBe("openai-log:1.2");
    expect(third?.[3]?.meta.id).toBe("openai-log:2.4");
  });

  it("gives a changed message a fresh id", () => {
    const line = (user: string) => JSON.stringify({ model: "m", messages: [{ role: "system", content: "s" }, { role: "user", content: user }] });
    const changed = importOpenAILog(`${line("at 10:00")}\n${line("at 10:01")}\n`, "changed.jsonl").transcripts[0]?.calls ?? [];
    expect(changed[0]?.request.messages[0]?.meta.id).toBe("changed:0.1");
    expect(changed[1]?.request.messages[0]?.meta.id).toBe("changed:1.1");
  });

  it("reads the response and the usage the provider reported", () => {
    expect(calls[0]?.reportedUsage).toBeUndefined();
    expect(calls[1]?.reportedUsage).toEqual({ promptTokens: 1121, cachedTokens: 1024, completionTokens: 12 });
    expect(calls[1]?.response).toMatchObject({ content: [{ type: "text", text: "It is 18 °C and clear in Lisbon." }], stopReason: "stop" });
    expect(calls[2]?.response).toMatchObject({
      content: [{ type: "tool_call", id: "call_Zp02", name: "get_weather" }],
      stopReason: "tool_calls",
      rawStopReason: "tool_calls",
      meta: { id: "openai-log:2:response", createdAt: "2025-11-30T04:00:07.000Z" },
    });
  });

  it("reports a line that is not a request, and a truncated last line, and imports the rest", () => {
    expect(problems).toEqual([
      { file, line: 5, reason: expect.stringContaining("truncated line") },
      { file, line: 3, reason: expect.stringContaining("expected a chat request body") },
    ]);
  });

  it("reports a message that does not fit the chat format, naming it", () => {
    const bad = JSON.stringify({ model: "m", messages: [{ role: "narrator", content: "x" }] });
    expect(importOpenAILog(bad, "bad.jsonl")).toEqual({
      transcripts: [],
      problems: [{ file: "bad.jsonl", line: 1, reason: expect.stringContaining("messages[0].role") }],
    });
  });
});
