import { describe, expect, it } from "vitest";
import { composeOnToolCall } from "../context/compose-policy-gates.js";
import type { ContextPolicy } from "../context/context-policy.js";
import type { ToolCallInfo } from "../loop/agent-options.js";
import { executeToolCall, type ToolExecutionContext } from "../loop/execute-tool-calls.js";
import { createToolApprovals, workspaceConfigReason } from "./create-tool-approvals.js";
import { defineTool } from "./tool.js";

const writeFile = defineTool<{ path: string }>({
  name: "write_file",
  description: "Writes a file.",
  parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
  requiresConfirmation: true,
  execute: async () => "written",
});
const readFile = defineTool<{ path: string }>({
  name: "read_file",
  description: "Reads a file.",
  parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
  execute: async () => "read",
});

/** Asks for an approval of the exact call, as the runtime guard does under taint. */
const exactAsk: ContextPolicy = {
  name: "exact-ask",
  onToolCall: () => ({ action: "ask", reasons: ["untrusted content"], exact: true, refusal: () => "not confirmed" }),
};

async function run(policies: readonly ContextPolicy[], path: string, tool = writeFile) {
  const asked: ToolCallInfo[] = [];
  const context: ToolExecutionContext = {
    tools: new Map([[writeFile.name, writeFile], [readFile.name, readFile]]),
    validators: new Map(),
    ...composeOnToolCall(policies),
    // The person: approves anything that is not bound to an exact call with a bare yes (as --yes would).
    confirmToolCall: async (info) => {
      asked.push(info);
      return { approved: true };
    },
    defaultTimeoutMs: 10_000,
    signal: new AbortController().signal,
  };
  const args = { path };
  const outcome = await executeToolCall({ type: "tool_call", id: "c1", name: tool.name, arguments: args, argumentsText: JSON.stringify(args) }, context);
  return { outcome, asked, ran: JSON.stringify(outcome.output).includes(tool === writeFile ? "written" : "read") };
}

describe("tool approvals", () => {
  it("runs a confirming tool on the allow list or under approveAll without asking, and asks otherwise", async () => {
    const allowed = await run([createToolApprovals({ allow: ["write_file"] })], "src/a.ts");
    expect(allowed).toMatchObject({ ran: true, asked: [] });
    expect(allowed.outcome.confirmation).toBe("approved");
    expect(await run([createToolApprovals({ approveAll: true })], "src/a.ts")).toMatchObject({ ran: true, asked: [] });
    const notListed = await run([createToolApprovals({ allow: ["bash"] })], "src/a.ts");
    expect(notListed.asked).toHaveLength(1);
    expect(notListed.asked[0]!.asked).toBeUndefined();
  });

  it("asks about a call naming ctxkit.config.json under approveAll and allow, saying why", async () => {
    const { asked } = await run([createToolApprovals({ approveAll: true, allow: ["write_file"] })], "ctxkit.config.json");
    expect(asked).toHaveLength(1);
    expect(asked[0]!.asked).toEqual({ reasons: [workspaceConfigReason] });
    // A tool that does not ask for confirmation is not asked about for naming it (reading it is fine).
    expect(await run([createToolApprovals({ approveAll: true })], "ctxkit.config.json", readFile)).toMatchObject({ ran: true, asked: [] });
  });

  it("gives the model the loop's words when such a call is declined or nobody can be asked", async () => {
    const policy = createToolApprovals({ approveAll: true });
    const args = { path: "ctxkit.config.json" };
    const call = { type: "tool_call" as const, id: "c1", name: "write_file", arguments: args, argumentsText: JSON.stringify(args) };
    const base = { tools: new Map([[writeFile.name, writeFile]]), validators: new Map(), ...composeOnToolCall([policy]), defaultTimeoutMs: 10_000, signal: new AbortController().signal };
    const said = await executeToolCall(call, { ...base, confirmToolCall: async () => ({ approved: false, reason: "not that file" }) });
    expect(JSON.stringify(said.output)).toContain("The user declined this call to 'write_file' and said: not that file");
    const nobody = await executeToolCall(call, base);
    expect(JSON.stringify(nobody.output)).toContain("'write_file' needs the user's approval and no approval handler is configured, so it was not run.");
  });

  it("never approves a call another policy asks about exactly: a bare yes does not run it", async () => {
    const { ran, asked } = await run([createToolApprovals({ approveAll: true, allow: ["write_file"] }), exactAsk], "src/a.ts");
    expect(asked).toHaveLength(1);
    expect(asked[0]!.guard).toMatchObject({ reasons: ["untrusted content"] });
    expect(ran).toBe(false);
  });
});
