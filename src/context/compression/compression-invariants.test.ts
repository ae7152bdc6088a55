import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isCtxkitError, type Message, type ToolMessage } from "../../types/index.js";
import { applyEdits } from "../compose-context-policies.js";
import { createMemoryBlobStore } from "./blob-store.js";
import { storingBlobs } from "./test-support/store-policy-blobs.js";
import { findSplitViolations } from "./conversation-units.js";
import { compressionPolicyNames, createCompressionPolicy } from "./create-compression-policy.js";
import { isCompressedMessage } from "./markers.js";
import { assistantMessage, contextState, sourceFile, toolMessage, userMessage } from "./test-support/trajectory-builder.js";

interface TurnSpec {
  text: string;
  results: Array<{ lines: number; isError: boolean }>;
  userAfter: boolean;
  overflow: boolean;
}

/**
 * An archive may be condensed before a summary is made: then the context holds an archive of the
 * same turns whose lines are some of the original's, every turn's first line among them.
 */
function isCondensedIn(archive: Message, context: readonly Message[]): boolean {
  const replaces = archive.meta.derived?.kind === "archive" ? archive.meta.derived.replaces : undefined;
  if (replaces === undefined) return false;
  const lines = new Set(archive.content.toString().split("\n"));
  return context.some((message) => {
    if (message.meta.derived?.kind !== "archive" || message.meta.derived.replaces.join() !== replaces.join()) return false;
    const kept = message.content.toString().split("\n");
    const gists = [...lines].filter((line) => line.startsWith("- "));
    return kept.every((line) => lines.has(line)) && gists.every((gist) => kept.includes(gist));
  });
}

/** True about once in `inverse` draws. */
function rarely(inverse: number): fc.Arbitrary<boolean> {
  return fc.oneof({ arbitrary: fc.constant(false), weight: inverse - 1 }, { arbitrary: fc.constant(true), weight: 1 });
}

const turnSpec: fc.Arbitrary<TurnSpec> = fc.record({
  text: fc.constantFrom("", "Checking.", "I will look at the failing module next because the trace points there."),
  results: fc.array(fc.record({ lines: fc.integer({ min: 0, max: 160 }), isError: fc.boolean() }), { maxLength: 3 }),
  userAfter: rarely(10),
  overflow: rarely(20),
});

/**
 * Drives a policy like the agent loop does — results through `processToolResult`, then
 * `prepareContext` before each call, its edits applied — and checks the invariants after every call.
 */
async function drive(name: (typeof compressionPolicyNames)[number], turns: TurnSpec[]): Promise<number> {
  const policy = storingBlobs(createCompressionPolicy(name, { contextWindow: 6000, toolResultBudgetTokens: 2500 }), createMemoryBlobStore());
  const first = userMessage("u0", "Find why tests/test_payment.py fails and fix src/payment/callbacks.py.");
  let context: readonly Message[] = [first];
  for (const [turn, spec] of turns.entries()) {
    const calls = spec.results.map((_, index) => ({ id: `c${turn}_${index}`, name: "read_file", arguments: { path: `src/m${turn}_${index}.py` } }));
    const appended: Message[] = [assistantMessage(`a${turn}`, spec.text, calls)];
    for (const [index, result] of spec.results.entries()) {
      const raw = toolMessage(`t${turn}_${index}`, calls[index]!.id, "read_file", result.isError ? `Error: ${sourceFile(`e${turn}`, result.lines)}\nFileNotFoundError: src/m${turn}_${index}.py` : sourceFile(`m${turn}`, result.lines), result.isError);
      const info = { call: (appended[0] as Extract<Message, { role: "assistant" }>).content.find((part) => part.type === "tool_call" && part.id === calls[index]!.id) as never, durationMs: 1, callNumber: 1, totalCallNumber: 1, now: new Date(0) };
      appended.push(await policy.processToolResult(raw, info));
    }
    if (spec.userAfter) appended.push(userMessage(`u${turn + 1}`, "Also keep the logging unchanged."));
    context = [...context, ...appended];

    const before = context;
    let edits;
    try {
      edits = (await policy.prepareContext?.(contextState(before, { overflow: spec.overflow }))) ?? [];
    } catch (error) {
      // The circuit breaker may stop a run; that is a clean stop, not a broken context.
      expect(isCtxkitError(error) && error.code === "compaction_failed").toBe(true);
      return policy.stats().compactions;
    }
    for (const edit of edits) expect(edit.type).toBe("replace");
    context = applyEdits(before, edits);

    expect(findSplitViolations(context)).toEqual([]);
    expect(context[0]).toBe(first);
    const fullCompaction = edits.some((edit) => edit.type === "replace" && edit.reason.includes("into a summary"));
    if (!fullCompaction) for (const message of before.filter(isCompressedMessage)) expect(context.includes(message) || isCondensedIn(message, context)).toBe(true);
    // Failures survive: every error result still shows an error message.
    for (const message of context.filter((candidate): candidate is ToolMessage => candidate.role === "tool" && candidate.isError)) {
      expect(message.content).toMatch(/Error/);
    }
  }
  return policy.stats().compactions;
}

describe("compression invariants over random trajectories", () => {
  for (const name of compressionPolicyNames) {
    it(`${name}: pairs are never split, the first request stays, earlier stubs and summaries stay frozen (archives at most condensed)`, async () => {
      let compactions = 0;
      await fc.assert(
        fc.asyncProperty(fc.array(turnSpec, { minLength: 1, maxLength: 25 }), async (turns) => {
          compactions += await drive(name, turns);
        }),
        { numRuns: name === "ctxkit" ? 40 : 15 },
      );
      // The property is only worth something if the policies actually edited the context.
      if (name === "ctxkit" || name === "windowed" || name === "combined") expect(compactions).toBeGreaterThan(0);
    });
  }
});
