import { describe, expect, it } from "vitest";
import { defineTool } from "../tools/tool.js";
import { executeToolCall, type ToolExecutionContext } from "./execute-tool-calls.js";

const guarded = defineTool<{ path: string }>({
  name: "write_note",
  description: "Writes a note.",
  parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
  requiresConfirmation: true,
  execute: async () => "written",
});

function context(confirmToolCall: ToolExecutionContext["confirmToolCall"]): ToolExecutionContext {
  return { tools: new Map([[guarded.name, guarded]]), validators: new Map(), confirmToolCall, defaultTimeoutMs: 10_000, signal: new AbortController().signal };
}

const call = { type: "tool_call" as const, id: "c1", name: "write_note", arguments: { path: "a.md" }, argumentsText: '{"path":"a.md"}' };

describe("confirmations", () => {
  it("passes a refusal's reason to the model in the tool result", async () => {
    const outcome = await executeToolCall(call, context(async () => ({ approved: false, reason: "use notes/ instead" })));
    expect(outcome.output).toMatchObject({ isError: true });
    expect(JSON.stringify(outcome.output)).toContain("The user declined this call to 'write_note' and said: use notes/ instead");
  });

  it("leaves the time spent waiting for the person out of the tool's duration", async () => {
    // The person takes 1.5 s to answer; the tool itself returns at once.
    const slowApproval = () => new Promise<boolean>((resolve) => setTimeout(() => resolve(true), 1_500));
    const outcome = await executeToolCall(call, context(slowApproval));
    expect(JSON.stringify(outcome.output)).toContain("written");
    expect(outcome.durationMs).toBeLessThan(1_500);
  });
});
