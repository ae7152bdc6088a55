import { describe, expect, it } from "vitest";
import { createScriptedProvider } from "../../providers/scripted/index.js";
import { createAgent } from "../../loop/create-agent.js";
import { defineTool } from "../../tools/tool.js";
import type { Message, UserMessage } from "../../types/index.js";
import type { ContextPolicy } from "../context-policy.js";
import { createStatusBar } from "./create-status-bar.js";
import { withStatusCheckpoints } from "./with-status-checkpoints.js";
import { applyEdits } from "../compose-context-policies.js";
import { findSplitViolations } from "../compression/conversation-units.js";
import { deriveStatusState } from "./derive-status-state.js";

const environment = { workingDirectory: "/w", os: "linux", shell: "/bin/bash", runtime: "node 20" };
const phoneCall = defineTool<{ company: string }>({
  name: "phone_call",
  description: "Call a company.",
  parameters: { type: "object", properties: { company: { type: "string" } }, required: ["company"] },
  execute: async ({ company }) => `Called ${company}: no answer.`,
});

/** Summarises everything but the newest turn into one harness message, like a full compaction. */
const compactor: ContextPolicy = {
  name: "compactor",
  prepareContext: ({ messages, iteration }) => {
    if (iteration !== 3) return undefined;
    const summary: UserMessage = { role: "user", content: "Summary: called Xfinity three times.", meta: { id: "summary", origin: "harness", createdAt: "" } };
    return [{ type: "replace", start: 1, end: messages.length, messages: [summary], reason: "compaction" }];
  },
};

describe("status checkpoints across a compaction", () => {
  it("keeps the per-target count and the reached limit after the calls were summarised away", async () => {
    const statusBar = createStatusBar({
      environment,
      mode: "replace",
      targets: [{ tool: "phone_call", argument: "company" }],
      limits: [{ tool: "phone_call", argument: "company", max: 3 }],
    });
    const call = (index: number) => ({ toolCalls: [{ id: `c${index}`, name: "phone_call", arguments: { company: "Xfinity" } }], text: `Attempt ${index}.` });
    const provider = createScriptedProvider({ turns: [call(1), { toolCalls: [{ name: "phone_call", arguments: { company: "Xfinity" } }] }, call(3), "I will not call again."] });
    const agent = createAgent({
      provider,
      system: "s",
      tools: [phoneCall],
      contextPolicy: withStatusCheckpoints(compactor, statusBar.checkpoint),
      tail: statusBar.tail,
      prefixGuard: { strict: true },
    });
    await agent.run("Call Xfinity until someone answers.").result();
    const lastRequest = provider.requests.at(-1)!;
    expect(lastRequest.messages.some((message: Message) => message.meta.id === "summary")).toBe(true);
    expect(lastRequest.messages.some((message: Message) => message.role === "assistant")).toBe(false);
    expect(lastRequest.tail?.content).toContain("Maximum calls to \"Xfinity\" (phone_call company) reached (3/3)");
  });
});

describe("status checkpoints in edge-shaped replacements", () => {
  const bar = createStatusBar({ environment, mode: "replace" });
  const meta = (id: string, origin: "user" | "model" | "tool" | "harness") => ({ id, origin, createdAt: "2026-01-01T00:00:00.000Z" });
  const callPart = (id: string) => ({ type: "tool_call" as const, id, name: "phone_call", argumentsText: '{"company":"Xfinity"}', arguments: { company: "Xfinity" } });
  const result = (id: string, content = "no answer"): Message => ({ role: "tool", toolCallId: id, toolName: "phone_call", content, isError: false, meta: meta(`r_${id}`, "tool") });
  const state = (messages: Message[]) => ({ messages, prefix: { system: { staticText: "s" }, tools: [] }, iteration: 1, now: new Date(0), overflow: false, signal: new AbortController().signal });
  const run = async (policy: ContextPolicy, messages: Message[]) => {
    const edits = (await withStatusCheckpoints(policy, bar.checkpoint).prepareContext!(state(messages))) ?? [];
    return applyEdits(messages, edits);
  };

  it("keeps the counts when the replacement ends between two results of one call turn", async () => {
    const turn = { role: "assistant", content: [callPart("b1"), callPart("b2")], meta: meta("a2", "model") } satisfies Message;
    const messages: Message[] = [
      { role: "user", content: "Call Xfinity.", meta: meta("u", "user") },
      { role: "assistant", content: [callPart("a1")], meta: meta("a1", "model") },
      result("a1"),
      turn,
      result("b1", "no answer ".repeat(100)),
      result("b2"),
      { role: "assistant", content: [{ type: "text", text: "Still nothing." }], meta: meta("a3", "model") },
    ];
    const summary: Message = { role: "user", content: "[COMPRESSED] Summary: called Xfinity.", meta: meta("s", "harness") };
    const stub = { ...result("b1", "[COMPRESSED] cleared"), meta: meta("r_b1~c1", "harness") };
    // What editBetween gives for a compaction of 1..3 plus a cleared result in the kept turn.
    const compactor: ContextPolicy = { name: "c", prepareContext: () => [{ type: "replace", start: 1, end: 5, messages: [summary, turn, stub], reason: "compaction" }] };
    const after = await run(compactor, messages);
    expect(findSplitViolations(after)).toEqual([]);
    expect(deriveStatusState(after).toolCalls).toEqual({ phone_call: 3 });
  });

  it("keeps the counts when a later compaction folds in an earlier checkpoint", async () => {
    const checkpoint = bar.checkpoint(
      [{ role: "assistant", content: [callPart("a1")], meta: meta("a1", "model") }, result("a1")],
      new Date(0),
      "cp1",
    );
    const messages: Message[] = [
      { role: "user", content: "Call Xfinity.", meta: meta("u", "user") },
      { role: "user", content: "[COMPRESSED] Summary: called Xfinity.", meta: meta("s1", "harness") },
      checkpoint,
      { role: "assistant", content: [{ type: "text", text: "Waiting." }], meta: meta("a2", "model") },
      { role: "assistant", content: [{ type: "text", text: "Still waiting." }], meta: meta("a3", "model") },
    ];
    expect(deriveStatusState(messages).toolCalls).toEqual({ phone_call: 1 });
    const summary: Message = { role: "user", content: "[COMPRESSED] Summary: called Xfinity, waited.", meta: meta("s2", "harness") };
    const compactor: ContextPolicy = { name: "c", prepareContext: () => [{ type: "replace", start: 1, end: 4, messages: [summary], reason: "compaction" }] };
    const after = await run(compactor, messages);
    expect(deriveStatusState(after).toolCalls).toEqual({ phone_call: 1 });
  });
});
