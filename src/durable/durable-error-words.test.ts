import { describe, expect, it } from "vitest";
import { toCliMessage } from "../cli/cli-error-message.js";
import { sharedBudgetRefusal } from "./create-durable-provider.js";
import { cancelledNotStoppedMessage, workflowEndedMessage } from "./durable-client.js";
import { unknownRunMessage } from "./durable-tables.js";
import { runTimeoutMessage } from "./run-durable-workflow.js";

// A program calls defineBudget and submit({ budgetScope }); a person at the CLI passes flags.
describe("a shared budget's refusal", () => {
  it("names the durable client's options, and the CLI turns them into its flags", () => {
    const message = sharedBudgetRefusal("team", "it has too little left for a call of up to 4096 tokens");
    expect(message).not.toContain("--");
    expect(message).toContain('defineBudget("team", <limitTokens>, <maxCallTokens>)');
    expect(toCliMessage({ code: "budget_exceeded", message })).toBe(
      "The shared budget 'team' cannot cover another model call: it has too little left for a call of up to 4096 tokens. Raise its limit (ctxkit submit --budget-scope team --budget-tokens <n>), or submit with another --budget-scope.",
    );
  });
});

// submit({ timeoutMs }), list() and resume(id) on a DurableClient; --timeout, `ctxkit runs list` and `ctxkit runs resume` at the CLI.
describe("a durable run's errors", () => {
  it("name submit's timeoutMs for a run's deadline, and the CLI names --timeout", () => {
    const message = runTimeoutMessage(90_000);
    expect(message).not.toContain("--");
    expect(message).toContain("timeoutMs of 90000 (90 s)");
    expect(toCliMessage({ code: "run_timeout", message })).toBe("The run did not finish within its --timeout of 90 s after a worker started it; give it a longer --timeout.");
  });

  it("name the durable client's list() for an unknown run, and the CLI names ctxkit runs list", () => {
    const message = unknownRunMessage("run-nope", "postgres://ctxkit@db/ctxkit");
    expect(message).not.toContain("ctxkit runs");
    expect(message).toContain("a durable client's list() shows the runs it holds");
    expect(toCliMessage({ code: "session_not_found", message })).toBe("No durable run run-nope in postgres://ctxkit@db/ctxkit; see 'ctxkit runs list'.");
  });

  it("name the durable client's resume(id) for a workflow the engine ended, and the CLI names ctxkit runs resume", () => {
    const message = workflowEndedMessage("run-1", "CANCELLED");
    expect(message).not.toContain("ctxkit runs");
    expect(message).toContain('call resume("run-1") on a durable client');
    expect(toCliMessage({ code: "workflow_ended", message })).toBe(
      "The durable engine ended the run's workflow (CANCELLED) without it recording a result; see the workers' logs, then 'ctxkit runs resume run-1' if it was cancelled.",
    );
  });

  it("name the durable client's resume(id) for a cancelled run still stopping, and the CLI names ctxkit runs resume", () => {
    const message = cancelledNotStoppedMessage("run-1", "session-1");
    expect(message).toContain('call resume("run-1") on a durable client again');
    expect(toCliMessage({ code: "session_locked", message })).toBe("Run run-1 was cancelled, but its execution has not stopped yet (it still holds session session-1); run 'ctxkit runs resume run-1' again in a few seconds.");
  });
});
