import { describe, expect, it } from "vitest";
import { runWarningLine } from "./run-warning-line.js";

describe("the worker's line for a run's event", () => {
  it("prints a run's warning with the run's id, and nothing for other events", () => {
    const message = "The shared budget 'evals' has spent 80% of its limit (800 of 1,000 tokens, by every run that spends from it).";
    expect(runWarningLine("run-7", { type: "warning", code: "budget_threshold", message })).toBe(`ctxkit worker: run run-7: ${message}\n`);
    expect(runWarningLine("run-7", { type: "backpressure", turn: 2, delayMs: 50, share: 0.8 })).toBeUndefined();
  });

  it("escapes control characters a message may quote", () => {
    expect(runWarningLine("run-7", { type: "warning", code: "budget_threshold", message: "scope '\u001b[31mred'" })).not.toContain("\u001b");
  });

  // The loop advises the agent option; the run was submitted with the flag ('ctxkit submit --max-output-tokens').
  it("names the flag in an output_truncated warning, as ctxkit run does", () => {
    const line = runWarningLine("run-7", { type: "warning", code: "output_truncated", message: "The model's answer was cut at the output token limit; raise maxOutputTokens for a complete answer." });
    expect(line).toBe("ctxkit worker: run run-7: The model's answer was cut at the output token limit; raise --max-output-tokens for a complete answer.\n");
  });
});
