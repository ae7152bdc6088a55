import { describe, expect, it } from "vitest";
import type { Message, ToolMessage } from "../../types/index.js";
import { applyEdits } from "../compose-context-policies.js";
import { createMemoryBlobStore } from "./blob-store.js";
import { findSplitViolations } from "./conversation-units.js";
import { isCompressedMessage } from "./markers.js";
import { createCompressionPolicy } from "./create-compression-policy.js";
import { storingBlobs } from "./test-support/store-policy-blobs.js";
import { createDeterministicSummarizer } from "./deterministic-summarizer.js";
import { assistantMessage, contextState, readingSession, toolMessage, userMessage, usageOf } from "./test-support/trajectory-builder.js";

const WINDOW = 20_000;

function layered(options: Partial<Parameters<typeof createCompressionPolicy>[1]> = {}) {
  const blobStore = createMemoryBlobStore();
  return { blobStore, policy: storingBlobs(createCompressionPolicy("ctxkit", { contextWindow: WINDOW, ...options }), blobStore) };
}

// A summariser passed in counts as a model's: optional (early) batches then only clear results,
// which is the layer the clearing tests look at.
// Stubs at an eighth of the result keep these synthetic files (an identifier on every line) small
// enough for clearing alone to reach the target.
const clearingOnly = { summarizer: { name: "model-like", summarize: createDeterministicSummarizer().summarize }, stubShare: 0.125, target: 0.7 };

describe("ctxkit layered compression before a call", () => {
  it("does nothing below the trigger", async () => {
    const { policy } = layered();
    expect(await policy.prepareContext(contextState(readingSession(3, 40)))).toEqual([]);
  });

  it("clears old tool results into stubs that keep the blob, the call and the identifiers, as one replace edit", async () => {
    const { policy, blobStore } = layered(clearingOnly);
    const messages = readingSession(8, 80);
    const edits = (await policy.prepareContext(contextState(messages)))!;
    expect(edits).toHaveLength(1);
    const edit = edits[0]!;
    expect(edit).toMatchObject({ type: "replace" });
    const after = applyEdits(messages, edits);
    expect(findSplitViolations(after)).toEqual([]);
    expect(after[0]).toBe(messages[0]);
    const stub = after.find((message): message is ToolMessage => message.role === "tool" && message.content.startsWith("[COMPRESSED]"))!;
    const original = messages.find((message) => message.meta.id === stub.meta.id.split("~")[0]) as ToolMessage;
    expect(stub.toolCallId).toBe(original.toolCallId);
    expect(stub.meta.id).not.toBe(original.meta.id);
    expect(stub.content).toContain('read_file {"path":"src/payment/file_1.py"}');
    const blobId = /blob_[0-9a-f]{16}/.exec(stub.content)![0];
    expect(blobStore.get(blobId)).toBe(original.content);
    expect(stub.content).toContain("src/f1/module_0.py");
    expect(stub.content).toContain("process_payment");
    // The newest results stay whole.
    expect(after.at(-1)).toBe(messages.at(-1));
    expect(policy.stats()).toMatchObject({ compactions: 1, failedCompactions: 0 });
    expect(policy.stats().clearedResults).toBeGreaterThan(0);
  });

  it("never compresses a stub twice and leaves an earlier batch's stubs byte-identical", async () => {
    const { policy } = layered(clearingOnly);
    let messages: readonly Message[] = readingSession(8, 80);
    messages = applyEdits(messages, (await policy.prepareContext(contextState(messages)))!);
    const stubs = messages.filter((message) => message.content.toString().startsWith("[COMPRESSED]"));
    const more = readingSession(16, 80).slice(17);
    messages = [...messages, ...more];
    const edits = (await policy.prepareContext(contextState(messages)))!;
    expect(edits.length).toBe(1);
    const after = applyEdits(messages, edits);
    for (const stub of stubs) expect(after).toContain(stub);
  });

  it("never clears results of the newest turn, which the model has not seen yet", async () => {
    const { policy } = layered({ keepRecentToolTokens: 0, minFreedTokens: 1, ...clearingOnly });
    const messages = readingSession(3, 80);
    const calls = [1, 2, 3].map((index) => ({ id: `n${index}`, name: "read_file", arguments: { path: `src/new_${index}.py` } }));
    messages.push(assistantMessage("a_new", "", calls), ...calls.map((call, index) => toolMessage(`t_new${index}`, call.id, "read_file", readingSession(1, 80)[2]!.content as string)));
    const after = applyEdits(messages, (await policy.prepareContext(contextState(messages)))!);
    expect(after.slice(-4)).toEqual(messages.slice(-4));
    // Older results were compressed instead.
    expect(after.slice(1, -4).some((message) => isCompressedMessage(message))).toBe(true);
  });

  it("archives older turns early, keeping their results' fact lines verbatim, with the deterministic summariser", async () => {
    // About 27k tokens in a 60k window: past the early trigger, far from the 80% one. These turns
    // are nearly all tool output, so archive lines only beat stubs when they keep less of it (and
    // early batches then may lose identifiers: earlyCoverage 0).
    const { policy } = layered({ contextWindow: 60_000, expectedRemainingCalls: 30, earlyKeepShare: 0.2, earlyArchiveShare: 0.2, earlyCoverage: 0 });
    const messages = readingSession(8, 80);
    const after = applyEdits(messages, (await policy.prepareContext!(contextState(messages)))!);
    expect(policy.stats().reasons[0]).toMatch(/cache economics/);
    const archive = after.find((message) => message.role === "user" && message.content.startsWith("[COMPRESSED] Archived turns"));
    expect(archive).toBeDefined();
    const firstResult = messages.find((message) => message.role === "tool")!.content as string;
    const factLine = firstResult.split("\n").map((line) => line.trim()).find((line) => line.includes("process_payment"))!;
    expect(archive!.content as string).toContain(factLine);
    expect(findSplitViolations(after)).toEqual([]);
  });

  it("keeps an error result's message in its stub", async () => {
    const { policy } = layered({ keepRecentToolTokens: 0, minFreedTokens: 1 });
    const failure = "Traceback (most recent call last):\n" + "  frame\n".repeat(200) + "PermissionError: [Errno 13] Permission denied: '/etc/payment.conf'";
    const messages: Message[] = [
      userMessage("u0", "Deploy the payment service."),
      assistantMessage("a1", "", [{ id: "c1", name: "bash", arguments: { command: "cat /etc/payment.conf" } }]),
      toolMessage("t1", "c1", "bash", failure, true),
      ...readingSession(6, 80).slice(1),
    ];
    const after = applyEdits(messages, (await policy.prepareContext(contextState(messages)))!);
    const stub = after[2] as ToolMessage;
    expect(stub.content).toMatch(/^\[COMPRESSED\]/);
    expect(stub.content).toContain("PermissionError: [Errno 13] Permission denied: '/etc/payment.conf'");
    expect(stub.isError).toBe(true);
  });

  it("uses the provider's reported prompt size plus what was appended since", async () => {
    const messages = readingSession(3, 80);
    const next = [...messages, ...readingSession(4, 80).slice(7)];
    // Counted alone, one more file stays under the trigger…
    const counting = layered().policy;
    expect(await counting.prepareContext!(contextState(messages))).toEqual([]);
    expect(await counting.prepareContext!(contextState(next))).toEqual([]);
    // …but the provider counted 15k for the first context, so with the file appended it passes.
    const { policy } = layered();
    expect(await policy.prepareContext(contextState(messages))).toEqual([]);
    const edits = await policy.prepareContext(contextState(next, { lastUsage: usageOf(15_000) }));
    expect(edits!.length).toBe(1);
    const measured = Number(/about (\d+) →/.exec(policy.stats().reasons[0]!)![1]);
    expect(measured).toBeGreaterThan(15_000);
  });

  it("archives older turns one line each when clearing alone cannot reach the target", async () => {
    const { policy } = layered({ contextWindow: 40_000, keepRecentTokens: 1000 });
    const messages: Message[] = [userMessage("u0", "Investigate the flaky payment tests.")];
    for (let turn = 1; turn <= 115; turn += 1) {
      messages.push(assistantMessage(`a${turn}`, `Step ${turn}: I will check tests/test_payment_${turn}.py because the retry logic looks wrong there.`.repeat(12), [{ id: `c${turn}`, name: "grep", arguments: { pattern: `retry_${turn}` } }]));
      messages.push(toolMessage(`t${turn}`, `c${turn}`, "grep", `tests/test_payment_${turn}.py:12: retry_${turn}(attempts=3)`));
    }
    const after = applyEdits(messages, (await policy.prepareContext(contextState(messages)))!);
    expect(findSplitViolations(after)).toEqual([]);
    const archive = after.find((message) => message.role === "user" && message.content.startsWith("[COMPRESSED] Archived turns"));
    expect(archive?.content).toContain("- a1: grep {\"pattern\":\"retry_1\"} → ok");
    expect(archive?.content).toContain("tests/test_payment_1.py");
    expect(policy.stats().archivedTurns).toBeGreaterThan(0);
    expect(after[0]).toBe(messages[0]);
  });

  it("compacts into sections, keeping the first request, failures and identifiers, when nothing lighter is enough", async () => {
    const { policy } = layered({ contextWindow: 8000, keepRecentTokens: 500 });
    const messages: Message[] = [userMessage("u0", "Fix the payment callback bug. You must not change the public API.")];
    // Enough turns that even their archive, condensed to one line a turn, stays over the compaction floor.
    for (let turn = 1; turn <= 400; turn += 1) {
      messages.push(assistantMessage(`a${turn}`, `I decided to patch src/payment/callbacks.py line ${turn * 10} because handle_callback drops retries.`, [{ id: `c${turn}`, name: "bash", arguments: { command: `pytest tests/test_${turn}.py` } }]));
      messages.push(toolMessage(`t${turn}`, `c${turn}`, "bash", turn === 3 ? "E   AssertionError: expected status 200, got 502" : `${turn} passed in 0.${turn}s`, turn === 3));
    }
    // Archived earlier: frozen until a full compaction folds it in.
    messages.splice(1, 0, userMessage("u0~a1", "[COMPRESSED] Archived turns x … y, one line each:\n- x: read_file {\"path\":\"docs/DESIGN.md\"} → ok", "harness"));
    const after = applyEdits(messages, (await policy.prepareContext(contextState(messages)))!);
    expect(findSplitViolations(after)).toEqual([]);
    expect(after[0]).toBe(messages[0]);
    const summary = after[1]!;
    expect(summary.role).toBe("user");
    const text = summary.content as string;
    expect(text).toMatch(/^\[COMPRESSED\] Summary of the conversation so far/);
    for (const section of ["## Goal", "## Constraints", "## Decisions", "## Progress", "## Failures and why", "## Next steps", "## Files and identifiers"]) expect(text).toContain(section);
    expect(text).toContain("You must not change the public API.");
    expect(text).toContain("E   AssertionError: expected status 200, got 502");
    expect(text).toContain("src/payment/callbacks.py");
    expect(text).toContain("docs/DESIGN.md");
    expect(policy.stats().fullCompactions).toBe(1);
  });

  it("waits for 90% of the window before a needed batch (Codex's auto-compact share)", async () => {
    // No early batches (no calls expected to pay them back): only the trigger can start one.
    const at = async (inputTokens: number) => {
      const { policy } = layered({ expectedRemainingCalls: 0 });
      const messages = readingSession(6, 80);
      // The provider's count of this very context: nothing appended since.
      await policy.prepareContext(contextState(messages));
      return (await policy.prepareContext(contextState(messages, { lastUsage: usageOf(inputTokens) }))) ?? [];
    };
    expect(await at(0.85 * WINDOW)).toEqual([]);
    expect(await at(0.92 * WINDOW)).toHaveLength(1);
  });

  it("compresses sooner when the share left under the trigger is less than the answer's room", async () => {
    const at = async (inputTokens: number, reservedOutputTokens?: number) => {
      const { policy } = layered({ expectedRemainingCalls: 0, ...(reservedOutputTokens === undefined ? {} : { reservedOutputTokens }) });
      const messages = readingSession(6, 80);
      await policy.prepareContext(contextState(messages));
      return (await policy.prepareContext(contextState(messages, { lastUsage: usageOf(inputTokens) }))) ?? [];
    };
    // 4,000 output tokens on a 20k window: the context must stay under 16,000, not 18,000.
    expect(await at(0.82 * WINDOW)).toEqual([]);
    expect(await at(0.82 * WINDOW, 4_000)).toHaveLength(1);
    expect(await at(0.78 * WINDOW, 4_000)).toEqual([]);
    // Room for the answer that would leave nothing above the target: the trigger stops halfway (14,000).
    expect(await at(0.68 * WINDOW, 12_000)).toEqual([]);
    expect(await at(0.72 * WINDOW, 12_000)).toHaveLength(1);
  });

  it("takes a cold cache as the chance to compress above the lower threshold", async () => {
    const { policy } = layered({ expectedRemainingCalls: 0 });
    const messages = readingSession(4, 80);
    const now = new Date("2026-01-01T01:00:00.000Z");
    expect(await policy.prepareContext(contextState(messages, { now, lastRequestAt: new Date("2026-01-01T00:59:00.000Z") }))).toEqual([]);
    const edits = await policy.prepareContext(contextState(messages, { now, lastRequestAt: new Date("2026-01-01T00:50:00.000Z") }));
    expect(edits!.length).toBe(1);
    expect(policy.stats().coldCacheCompactions).toBe(1);
  });
});
