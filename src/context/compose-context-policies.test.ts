import { describe, expect, it } from "vitest";
import type { Message, ToolMessage, UserMessage } from "../types/index.js";
import { toProcessedToolResult, type ContextPolicy, type ContextState } from "./context-policy.js";
import { composeContextPolicies } from "./compose-context-policies.js";
import { createStablePrefix } from "./stable-prefix.js";

const message = (id: string): UserMessage => ({ role: "user", content: id, meta: { id, origin: "harness", createdAt: "" } });
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
    expect(toProcessedToolResult(await composed.processToolResult!(result, info)).message.content).toBe("raw+a+b");
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

  it("runs members by their order whatever the list order, and flattens nested compositions", async () => {
    const log: string[] = [];
    const policy = (name: string, order: number): ContextPolicy => ({
      name,
      order,
      processUserMessage: (message) => (log.push(name), message),
      prepareContext: () => (log.push(`prepare ${name}`), []),
    });
    const composed = composeContextPolicies(policy("status", 100), composeContextPolicies(policy("compression", -100), policy("mine", 0)));
    expect(composed.members.map((member) => member.name)).toEqual(["compression", "mine", "status"]);
    composed.processUserMessage!(message("u"), { trajectory: [], now: new Date(0) });
    await composed.prepareContext!(state([]));
    expect(log).toEqual(["compression", "mine", "status", "prepare compression", "prepare mine", "prepare status"]);
  });

  it("joins tools, stable system sections and tails (one tail message for all)", () => {
    const tool = (name: string) => ({ name, description: name, parameters: { type: "object" }, execute: async () => "" });
    const composed = composeContextPolicies(
      { name: "a", tools: [tool("x")], system: () => "Section A.", tail: () => "<a/>" },
      { name: "b", tools: [tool("y")], system: () => undefined, tail: () => undefined },
      { name: "c", system: ({ toolNames }) => `Tools: ${toolNames.join(", ")}.`, tail: () => "<c/>" },
    );
    expect(composed.tools!.map((entry) => entry.name)).toEqual(["x", "y"]);
    expect(composed.system!({ toolNames: ["x", "y"] })).toBe("Section A.\n\nTools: x, y.");
    expect(composed.tail!({ trajectory: [], iteration: 0, now: new Date(0) })).toBe("<a/>\n\n<c/>");
  });

  it("carries every member's checkpoint across a compaction that removes tool calls, whichever member compacted", async () => {
    const call = { type: "tool_call" as const, id: "c1", name: "t", argumentsText: "{}", arguments: {} };
    const messages: Message[] = [
      message("task"),
      { role: "assistant", content: [call], meta: { id: "a1", origin: "model", createdAt: "" } },
      { role: "tool", toolCallId: "c1", toolName: "t", content: "r", isError: false, meta: { id: "t1", origin: "tool", createdAt: "" } },
      message("recent"),
    ];
    const compactor: ContextPolicy = { name: "compactor", prepareContext: () => [{ type: "replace", start: 1, end: 3, messages: [message("summary")], reason: "compaction" }] };
    const counter: ContextPolicy = {
      name: "counter",
      checkpoint: (before, now, id) => ({ role: "user", content: `calls: ${before.filter((entry) => entry.role === "tool").length}`, meta: { id, origin: "harness", createdAt: now.toISOString(), derived: { kind: "checkpoint", policy: "counter", data: 1 } } }),
    };
    const edits = await composeContextPolicies(compactor, counter).prepareContext!(state(messages));
    expect(edits).toHaveLength(1);
    expect(edits![0]!.messages.map((entry) => (entry.role === "user" ? entry.content : entry.role))).toEqual(["summary", "calls: 1"]);
    // A replacement that keeps the calls (clearing a result into a stub) needs no checkpoint.
    const clearing: ContextPolicy = { name: "clearing", prepareContext: ({ messages: current }) => [{ type: "replace", start: 2, end: 3, messages: [{ ...(current[2] as ToolMessage), content: "stub" }], reason: "clearing" }] };
    const cleared = await composeContextPolicies(clearing, counter).prepareContext!(state(messages));
    expect(cleared![0]!.messages).toHaveLength(1);
  });
});
