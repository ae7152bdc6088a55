import { describe, expect, it } from "vitest";
import { derivedOf, type Message, type ToolMessage } from "../../types/index.js";
import { createBlobCollector } from "./blob-store.js";
import { budgetToolResult } from "./budget-tool-result.js";
import { planToolResultClearing } from "./clear-old-tool-results.js";
import { resolveCompressionSettings } from "./compression-options.js";
import { emptyCompressionStats } from "./compression-stats.js";
import { createContextMeter } from "./context-meter.js";
import { planCompression } from "./plan-compression.js";
import { assistantMessage, sourceFile, toolMessage, userMessage } from "./test-support/trajectory-builder.js";

const now = new Date("2026-01-01T00:00:00.000Z");
const settings = resolveCompressionSettings({ contextWindow: 20_000, minFreedTokens: 1, toolResultBudgetTokens: 1600, keepRecentToolTokens: 0 });
const meter = createContextMeter(settings.counter);

/** A result over its budget, as the trajectory holds it: a frozen head/tail preview. */
function previewOf(id: string, callId: string, content: string): ToolMessage {
  const preview = budgetToolResult(toolMessage(id, callId, "read_file", content) as ToolMessage, settings, emptyCompressionStats());
  expect(derivedOf(preview, "preview")).toBeDefined();
  return preview;
}

/** The fact lines of a preview: its shown lines of the file (not the header or the gap marker). */
function shownFileLines(preview: ToolMessage): string[] {
  return preview.content.split("\n").filter((line) => /def handler_/.test(line)).map((line) => line.trim());
}

const visibleLines = (messages: readonly Message[]) => new Set(messages.flatMap((message) => message.content.toString().split("\n").map((line) => line.trim())));

function clear(messages: readonly Message[]) {
  return planToolResultClearing(messages, { keepRecentToolTokens: 0, countMessage: meter.countMessage, blobs: createBlobCollector(), batch: 2, now });
}

describe("clearing a preview", () => {
  it("keeps in the stub the preview's lines that nothing else shows (its own text is not 'shown elsewhere')", () => {
    const preview = previewOf("t1", "c1", sourceFile("refunds", 80));
    const shown = shownFileLines(preview);
    expect(shown.length).toBeGreaterThan(2);
    const context = [
      userMessage("u0", "Fix the refund bug in src/payment."),
      assistantMessage("a1", "I will read it.", [{ id: "c1", name: "read_file", arguments: { path: "src/refunds.py" } }]),
      preview,
      assistantMessage("a2", "Now the tests.", [{ id: "c2", name: "bash", arguments: { command: "npm test" } }]),
      toolMessage("t2", "c2", "bash", "ok"),
    ];
    const planned = clear(context);
    const stub = planned.messages[2]!;
    expect(derivedOf(stub, "stub")?.replaces).toBe("t1");
    // The stub's budget is a share of the preview: it keeps the first lines, not necessarily all.
    const kept = shown.filter((line) => stub.content.toString().includes(line));
    expect(kept.length).toBeGreaterThan(0);
    expect(stub.content.toString()).toContain(shown[0]);
    expect(derivedOf(stub, "stub")?.omittedAsShown).toBeUndefined();
  });

  it("keeps a line two previews share when both are cleared in one batch", () => {
    const shared = sourceFile("refunds", 80);
    const first = previewOf("t1", "c1", shared);
    const second = previewOf("t2", "c2", shared);
    const line = shownFileLines(first)[0]!;
    const context = [
      userMessage("u0", "Fix the refund bug in src/payment."),
      assistantMessage("a1", "I will read it.", [{ id: "c1", name: "read_file", arguments: { path: "src/refunds.py" } }]),
      first,
      assistantMessage("a2", "Again.", [{ id: "c2", name: "read_file", arguments: { path: "src/refunds.py" } }]),
      second,
      assistantMessage("a3", "Now the tests.", [{ id: "c3", name: "bash", arguments: { command: "npm test" } }]),
      toolMessage("t3", "c3", "bash", "ok"),
    ];
    const planned = clear(context);
    expect(planned.cleared).toBe(2);
    expect(visibleLines(planned.messages).has(line)).toBe(true);
  });
});

describe("archiving next to a preview", () => {
  it("keeps in the archive a line only a preview showed when that preview is cleared in the same batch", async () => {
    const preview = previewOf("t1", "c1", sourceFile("refunds", 80));
    const line = shownFileLines(preview)[0]!;
    const context: Message[] = [
      userMessage("u0", "Fix the refund bug in src/payment."),
      assistantMessage("a1", "I will read it.", [{ id: "c1", name: "read_file", arguments: { path: "src/refunds.py" } }]),
      preview,
      // A request of the user: the preview's turn stays out of the archive ranges.
      userMessage("u1", "Also look at the ledger."),
      assistantMessage("a2", "Grep for the handler.", [{ id: "c2", name: "grep", arguments: { pattern: "handler_refunds_0" } }]),
      toolMessage("t2", "c2", "grep", `${line}\n${sourceFile("ledger", 6)}`),
      assistantMessage("a3", "And the accounts.", [{ id: "c3", name: "read_file", arguments: { path: "src/accounts.py" } }]),
      toolMessage("t3", "c3", "read_file", sourceFile("accounts", 6)),
      assistantMessage("a4", "Now the tests.", [{ id: "c4", name: "bash", arguments: { command: "npm test" } }]),
      toolMessage("t4", "c4", "bash", "ok"),
    ];
    // A target out of reach: clearing alone is not enough, so the turns are archived too.
    const planned = await planCompression(
      { messages: context, prefixTokens: 0, scale: 1, targetTokens: 1, hard: false, layers: "archive", batch: 2, now },
      settings,
      meter,
      emptyCompressionStats(),
    );
    expect(planned.archivedTurns).toBe(2);
    expect(planned.messages.some((message) => derivedOf(message, "stub")?.replaces === "t1")).toBe(true);
    expect(visibleLines(planned.messages).has(line)).toBe(true);
  });

  it("keeps in a later archive a line only a preview showed when that preview's turn is archived in the same batch", async () => {
    const preview = previewOf("t1", "c1", sourceFile("refunds", 80));
    // The preview's last line: its own archive, a share of what the turns held, keeps the first lines only.
    const line = shownFileLines(preview).at(-1)!;
    const turn = (index: number, name: string, content: string): Message[] => [
      assistantMessage(`a${index}`, `Read ${name}.`, [{ id: `c${index}`, name: "read_file", arguments: { path: `src/${name}.py` } }]),
      toolMessage(`t${index}`, `c${index}`, "read_file", content),
    ];
    const context: Message[] = [
      userMessage("u0", "Fix the refund bug in src/payment."),
      ...turn(1, "refunds", "").slice(0, 1),
      preview,
      ...turn(2, "ledger", sourceFile("ledger", 4)),
      // A request of the user between them: two archive ranges.
      userMessage("u1", "Also look at the accounts."),
      // Lines without identifiers give the turn its share of the archive, room for the line.
      ...turn(3, "grep", `checked\n${line}\n${"checked\n".repeat(40)}`),
      ...turn(4, "settings", sourceFile("settings", 4)),
      assistantMessage("a5", "Now the tests.", [{ id: "c5", name: "bash", arguments: { command: "npm test" } }]),
      toolMessage("t5", "c5", "bash", "ok"),
    ];
    const planned = await planCompression(
      { messages: context, prefixTokens: 0, scale: 1, targetTokens: 1, hard: false, layers: "archive", batch: 2, now },
      // No result is cleared: the archives alone decide what stays of the preview's lines.
      { ...settings, keepRecentToolTokens: 100_000 },
      meter,
      emptyCompressionStats(),
    );
    expect(planned.archivedTurns).toBe(4);
    expect(planned.clearedResults).toBe(0);
    expect(visibleLines(planned.messages).has(line)).toBe(true);
  });
});
