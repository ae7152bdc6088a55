import { describe, expect, it } from "vitest";
import { defineTool } from "../tools/tool.js";
import { executeToolCall, executeToolCalls, type ToolExecutionContext } from "./execute-tool-calls.js";

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

  it("tells the model a turn stopped at the question was stopped, not that the user said the stop's note", async () => {
    const outcome = await executeToolCall(call, context(async () => ({ approved: false, stopped: true, reason: "The user stopped the turn (Ctrl-C) instead of answering." })));
    expect(outcome.output).toMatchObject({ isError: true });
    const told = JSON.stringify(outcome.output);
    expect(told).toContain("The user stopped the turn before answering whether to run this call to 'write_note', so it was not run.");
    expect(told).not.toContain("said");
  });

  it("leaves the time spent waiting for the person out of the tool's duration", async () => {
    // The person takes 1.5 s to answer; the tool itself returns at once.
    const slowApproval = () => new Promise<boolean>((resolve) => setTimeout(() => resolve(true), 1_500));
    const outcome = await executeToolCall(call, context(slowApproval));
    expect(JSON.stringify(outcome.output)).toContain("written");
    expect(outcome.durationMs).toBeLessThan(1_500);
  });

  // Ctrl-C at a question stops the turn: the call asked about is declined, and the turn's later calls
  // used to start anyway (a read, or a command an allow list approves) with their result saying "interrupted".
  it("starts no later call of the turn once the run was stopped at a question, and asks nothing more", async () => {
    const started: string[] = [];
    const quiet = defineTool<Record<string, never>>({ name: "list_notes", description: "Lists notes.", parameters: { type: "object" }, execute: async () => (started.push("list_notes"), "a.md") });
    const noted = defineTool<{ path: string }>({ ...guarded, execute: async () => (started.push("write_note"), "written") });
    const turn = new AbortController();
    let asked = 0;
    const stopAtQuestion = async () => {
      asked += 1;
      turn.abort();
      return { approved: false };
    };
    const outcomes = await executeToolCalls([call, { type: "tool_call", id: "c2", name: "list_notes", arguments: {}, argumentsText: "{}" }, { ...call, id: "c3" }], {
      tools: new Map<string, typeof guarded | typeof quiet>([[noted.name, noted], [quiet.name, quiet]]),
      validators: new Map(),
      confirmToolCall: stopAtQuestion,
      defaultTimeoutMs: 10_000,
      signal: turn.signal,
    });
    expect(started).toEqual([]);
    expect(asked).toBe(1);
    expect(outcomes.map((outcome) => outcome.output.content)).toEqual([
      expect.stringContaining("The user declined this call to 'write_note'"),
      "Error (failed): 'list_notes' was not run: the run was stopped before it started.",
      "Error (failed): 'write_note' was not run: the run was stopped before it started.",
    ]);
  });
});
