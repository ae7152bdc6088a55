import { describe, expect, it } from "vitest";
import { createScriptedProvider } from "../../providers/scripted/index.js";
import { createAgent } from "../../loop/create-agent.js";
import { defineTool } from "../../tools/tool.js";
import type { Message, UserMessage } from "../../types/index.js";
import type { ContextPolicy } from "../context-policy.js";
import { createStatusBar } from "./create-status-bar.js";
import { withStatusCheckpoints } from "./with-status-checkpoints.js";

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
