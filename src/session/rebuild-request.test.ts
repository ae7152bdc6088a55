import { describe, expect, it } from "vitest";
import type { Message, UserMessage } from "../types/index.js";
import { rebuildRequest } from "./rebuild-request.js";
import type { SessionPrefix } from "./session-records.js";
import {
  assistantWithToolCall,
  useTempSessionStore,
  samplePrefix,
  toolResult,
  userMessage,
} from "./test-support/session-test-data.js";

const store = useTempSessionStore();

const at = "2026-11-30T04:15:02.118Z";

/** Stands in for a provider's wire body: what matters is that equal parts give equal bytes. */
function wireBody(prefix: Pick<SessionPrefix, "system" | "tools">, messages: Message[], tail: UserMessage | undefined): string {
  return JSON.stringify({ system: prefix.system, tools: prefix.tools, messages: tail ? [...messages, tail] : messages });
}

describe("rebuildRequest", () => {
  it("rebuilds byte-identical bodies for every call, using the prefix in force at each", async () => {
    const widerPrefix: SessionPrefix = {
      ...samplePrefix,
      tools: [
        ...samplePrefix.tools,
        { name: "web_search", description: "Search the web.", parameters: { type: "object", properties: { query: { type: "string" } } } },
      ],
    };
    const writer = await store.create({ id: "rebuild", createdAt: at, prefix: samplePrefix });
    const trajectory: Message[] = [];
    const sent: string[] = [];
    const send = (prefix: SessionPrefix, tail: UserMessage | undefined): number => {
      sent.push(wireBody(prefix, trajectory.slice(), tail));
      return writer.appendRequest({ messageCount: trajectory.length, tail, provider: prefix.provider, model: prefix.model, at });
    };
    const append = (message: Message): void => {
      trajectory.push(message);
      writer.appendMessage(message);
    };

    append(userMessage("m1", "Why Kelvin?"));
    send(samplePrefix, userMessage("t1", "[status] call 1", "harness"));
    append(assistantWithToolCall("m2", "call-1", '{"path":"src/api.ts"}'));
    append(toolResult("m3", "call-1", "const url = `...`;"));
    send(samplePrefix, userMessage("t2", "[status] call 2", "harness"));
    writer.appendPrefix(widerPrefix, "user enabled web_search");
    append(userMessage("m4", "Search the docs too."));
    send(widerPrefix, undefined);
    await writer.close();

    const session = await store.load("rebuild");
    expect(session.prefixes.map((prefix) => prefix.reason)).toEqual([undefined, "user enabled web_search"]);
    for (const [index, body] of sent.entries()) {
      const rebuilt = rebuildRequest(session, index);
      expect(wireBody(rebuilt, rebuilt.messages, rebuilt.tail)).toBe(body);
    }
    expect(rebuildRequest(session, 1).tools.map((tool) => tool.name)).toEqual(["read_file"]);
    expect(rebuildRequest(session, 2).tools.map((tool) => tool.name)).toEqual(["read_file", "web_search"]);
    expect(rebuildRequest(session, 2).tail).toBeUndefined();
    expect(rebuildRequest(session, 0).messages.map((message) => message.meta.id)).toEqual(["m1"]);
  });

  it("refuses a request index the session does not have", async () => {
    const writer = await store.create({ id: "empty", createdAt: at, prefix: samplePrefix });
    await writer.close();
    const session = await store.load("empty");
    expect(() => rebuildRequest(session, 0)).toThrow(expect.objectContaining({ code: "request_not_found" }));
  });
});
