import { describe, expect, it } from "vitest";
import type { Message, ToolMessage } from "../types/index.js";
import type { ContextPolicy, ContextState } from "./context-policy.js";
import { composeContextPolicies } from "./compose-context-policies.js";
import { createStablePrefix } from "./stable-prefix.js";

const message = (id: string): Message => ({ role: "user", content: id, meta: { id, origin: "harness", createdAt: "" } });
const state = (messages: Message[]): ContextState => ({
  messages,
  prefix: createStablePrefix("s", []),
  iteration: 0,
  now: new Date(0),
  overflow: false,
  signal: new AbortController().signal,
});

describe("composeContextPolicies", () => {
  it("chains tool-result processors in order", async () => {
    const tag = (name: string): ContextPolicy => ({ name, processToolResult: (result) => ({ ...result, content: `${result.content}+${name}` }) });
    const result: ToolMessage = { role: "tool", toolCallId: "c", toolName: "t", content: "raw", isError: false, meta: { id: "r", origin: "tool", createdAt: "" } };
    const info = { call: { type: "tool_call" as const, id: "c", name: "t", argumentsText: "{}", arguments: {} }, durationMs: 0, callNumber: 1, totalCallNumber: 1, now: new Date(0) };
    const composed = composeContextPolicies(tag("a"), tag("b"));
    expect(composed.name).toBe("a+b");
    expect((await composed.processToolResult!(result, info)).content).toBe("raw+a+b");
  });

  it("shows each preparer the context as the previous preparers' edits left it", async () => {
    const seen: string[][] = [];
    const compactor: ContextPolicy = { name: "compactor", prepareContext: ({ messages }) => [{ type: "replace", start: 0, end: messages.length - 1, messages: [message("summary")], reason: "r" }] };
    const observer: ContextPolicy = {
      name: "observer",
      prepareContext: ({ messages }) => {
        seen.push(messages.map((entry) => entry.meta.id));
        return [{ type: "append", messages: [message("status")] }];
      },
    };
    const edits = await composeContextPolicies(compactor, observer).prepareContext!(state([message("1"), message("2"), message("3")]));
    expect(seen).toEqual([["summary", "3"]]);
    expect(edits?.map((edit) => edit.type)).toEqual(["replace", "append"]);
  });
});
