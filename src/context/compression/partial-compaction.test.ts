import { describe, expect, it } from "vitest";
import type { Message } from "../../types/index.js";
import { applyEdits } from "../compose-context-policies.js";
import { createCompressionPolicy } from "./create-compression-policy.js";
import { partialCompactionEnd } from "./partial-compaction.js";
import { assistantMessage, contextState, readingSession, toolMessage, userMessage } from "./test-support/trajectory-builder.js";

describe("partial compaction: only the oldest turns into the summary", () => {
  it("ends after the fewest oldest units that reach the goal, and never takes them all", () => {
    const messages: Message[] = [userMessage("u0", "task")];
    for (let turn = 1; turn <= 6; turn += 1) {
      messages.push(assistantMessage(`a${turn}`, "", [{ id: `c${turn}`, name: "read_file", arguments: { path: `f${turn}` } }]));
      messages.push(toolMessage(`t${turn}`, `c${turn}`, "read_file", "x"));
    }
    // Every unit weighs 100 tokens; the summary 50.
    const project = (rest: readonly Message[]) => (rest.length - 1) * 50;
    expect(partialCompactionEnd(messages, 1, messages.length, { goalTokens: 500, summaryTokens: 50, project })).toBe(5);
    expect(partialCompactionEnd(messages, 1, messages.length, { goalTokens: 10_000, summaryTokens: 50, project })).toBe(3);
    expect(partialCompactionEnd(messages, 1, messages.length, { goalTokens: 100, summaryTokens: 50, project })).toBeUndefined();
  });

  it("keeps the newer turns as archives beside the summary when the option is on", async () => {
    const drive = async (partialCompaction: number | false) => {
      const policy = createCompressionPolicy("ctxkit", { contextWindow: 20_000, expectedRemainingCalls: 0, condenseShare: 0, partialCompaction });
      const all = readingSession(40, 40);
      let context: readonly Message[] = [all[0]!];
      // Archives beside the summary right after a batch that summarised: turns kept as verbatim lines.
      const beside: number[] = [];
      for (let turn = 1; turn <= 40; turn += 1) {
        context = [...context, all[2 * turn - 1]!, all[2 * turn]!];
        const summaries = policy.stats().fullCompactions;
        context = applyEdits(context, (await policy.prepareContext!(contextState(context))) ?? []);
        if (policy.stats().fullCompactions > summaries) beside.push(context.filter((message) => message.meta.derived?.kind === "archive").length);
      }
      return { stats: policy.stats(), beside };
    };
    const partial = await drive(0.5);
    expect(partial.stats.fullCompactions).toBeGreaterThan(0);
    expect(partial.stats.reasons.some((reason) => reason.includes("(the oldest turns)"))).toBe(true);
    for (const archives of partial.beside) expect(archives).toBeGreaterThan(0);
    // A full compaction folds everything before the newest turn into the summary.
    const full = await drive(false);
    expect(full.stats.fullCompactions).toBeGreaterThan(0);
    for (const archives of full.beside) expect(archives).toBe(0);
  });
});
