import { describe, expect, it } from "vitest";
import type { Message } from "../../types/index.js";
import { createArchiveMessage } from "./archive-turns.js";
import { resolveCompressionSettings } from "./compression-options.js";
import { emptyCompressionStats } from "./compression-stats.js";
import { createContextMeter } from "./context-meter.js";
import { planCompression } from "./plan-compression.js";
import { assistantMessage, sourceFile, toolMessage, userMessage } from "./test-support/trajectory-builder.js";
import { derivedOf, type ToolMessage } from "../../types/index.js";
import { createToolResultStub } from "./tool-result-stub.js";
import { planToolResultClearing } from "./clear-old-tool-results.js";
import { createBlobCollector } from "./blob-store.js";

const now = new Date("2026-01-01T00:00:00.000Z");
/** The line only the older archive shows: the newer one left it out because the older one had it. */
const sharedLine = "  412\tdef settle_refund(order_id): return ledger.post(order_id, REFUND_ACCOUNT)  # src/payment/refunds.py";

/** An archive of one turn with `facts` fact lines (the last one `last`, when given). */
function archive(id: string, facts: number, last?: string, omittedAsShown: string[] = []): Message {
  const lines = [`- ${id}: read_file {"path":"src/payment/${id}.py"} → ok`, ...Array.from({ length: facts }, (_, index) => `  ${index + 1}\tdef handler_${id}_${index}(request): return process(request, timeout=${index * 10})  # src/${id}/module_${index}.py`)];
  if (last !== undefined) lines.push(last);
  const sources = [{ label: id, kind: "assistant" as const, text: id, messageId: id }];
  return createArchiveMessage({ start: 1, end: 3, sources }, lines.slice(0).join("\n"), 1, now, [], omittedAsShown);
}

/** The request, an older archive showing `sharedLine` last, a newer one that left it out, and the newest turn. */
function contextWithTwoArchives(): Message[] {
  return [
    userMessage("u0", "Fix the refund bug in src/payment."),
    archive("m1", 40, sharedLine.trimEnd()),
    archive("m2", 40, undefined, [sharedLine.trim()]),
    assistantMessage("a9", "I will run the tests.", [{ id: "c9", name: "bash", arguments: { command: "npm test" } }]),
    toolMessage("t9", "c9", "bash", "ok"),
  ];
}

async function plan(messages: Message[], hard: boolean) {
  const settings = resolveCompressionSettings({ contextWindow: 20_000, minFreedTokens: 1 });
  const meter = createContextMeter(settings.counter);
  const before = meter.countMessages(messages);
  return planCompression(
    { messages, prefixTokens: 0, scale: 1, targetTokens: before - 50, hard, layers: "all", batch: 2, now },
    settings,
    meter,
    emptyCompressionStats(),
  );
}

const visible = (messages: readonly Message[]) => messages.map((message) => message.content.toString()).join("\n");

describe("condensing archives in a needed batch", () => {
  it("keeps a line the older archive alone shows, which the newer archive left out because of it", async () => {
    const result = await plan(contextWithTwoArchives(), false);
    expect(result.steps).toContain("condensed 1 archives");
    expect(result.fullCompaction).toBe(false);
    // The older archive lost lines, but not the one the newer archive relies on it for.
    expect(visible(result.messages).split("\n").filter((line) => line.includes("def handler_m1_")).length).toBeLessThan(40);
    expect(visible(result.messages)).toContain(sharedLine.trim());
  });

  it("condenses the archive that reaches the target only as far as the target needs", async () => {
    // 50 tokens over the target: condensing the archive to its 40% would drop most of its 40 lines.
    const context = [userMessage("u0", "Fix the refund bug in src/payment."), ...contextWithTwoArchives().slice(2)];
    const result = await plan(context, false);
    expect(result.steps).toContain("condensed 1 archives");
    const meter = createContextMeter(resolveCompressionSettings({ contextWindow: 20_000 }).counter);
    expect(result.projectedTokens).toBeLessThanOrEqual(meter.countMessages(context) - 50);
    const kept = visible(result.messages).split("\n").filter((line) => line.includes("def handler_m2_")).length;
    expect(kept).toBeLessThan(40);
    expect(kept).toBeGreaterThan(30);
  });

  it("condenses after a context overflow too, before summarising everything", async () => {
    const result = await plan(contextWithTwoArchives(), true);
    expect(result.steps).toContain("condensed 1 archives");
    expect(result.fullCompaction).toBe(false);
    expect(visible(result.messages)).toContain("- m1: read_file");
    expect(visible(result.messages)).toContain(sharedLine.trim());
  });

  it("records in a new archive the lines it left out because an older archive shows them", async () => {
    // Turn 1 is archived already and shows the file's lines; turn 2 reads the same file again.
    const file = sourceFile("refunds", 30);
    const reread = [
      userMessage("u0", "Fix the refund bug in src/payment."),
      createArchiveMessage({ start: 1, end: 3, sources: [{ label: "m1", kind: "assistant", text: "m1", messageId: "a1" }] }, `- a1: read_file {"path":"src/payment/refunds.py"} → ok\n${file.split("\n").map((line) => `  ${line.trim()}`).join("\n")}`, 1, now),
      assistantMessage("a2", "I will read it again.", [{ id: "c2", name: "read_file", arguments: { path: "src/payment/refunds.py" } }]),
      toolMessage("t2", "c2", "read_file", `${file}\n    31\tdef new_line_only_here(): pass  # src/payment/refunds_extra.py`),
      // Archives take runs of at least two turns.
      assistantMessage("a4", "And the ledger.", [{ id: "c4", name: "read_file", arguments: { path: "src/payment/ledger.py" } }]),
      toolMessage("t4", "c4", "read_file", sourceFile("ledger", 10)),
      assistantMessage("a3", "Now the tests.", [{ id: "c3", name: "bash", arguments: { command: "npm test" } }]),
      toolMessage("t3", "c3", "bash", "ok"),
    ];
    const result = await plan(reread, false);
    const newer = result.messages.find((message) => derivedOf(message, "archive")?.replaces.includes("a2"));
    expect(newer).toBeDefined();
    const omitted = derivedOf(newer!, "archive")!.omittedAsShown ?? [];
    // Every line the older archive shows was left out of the newer one, and recorded as such (the
    // first comes after the result's label in the turn's text, so it is not the same line and stays).
    expect(omitted).toEqual(file.split("\n").slice(1).map((line) => line.trim()));
    expect(newer!.content.toString()).toContain("new_line_only_here");
  });

  it("keeps a line an older batch's stub left out because the archive shows it", async () => {
    // The stub of an earlier batch: its result had the archive's line, so it kept the others only.
    const result = toolMessage("t5", "c5", "grep", `${sharedLine.trim()}\n  77\tREFUND_ACCOUNT = "acct_9f31"  # src/payment/accounts.py`) as ToolMessage;
    const stub = createToolResultStub({ result, blobId: "blob_t5", callText: "grep", tokens: 60, knownLines: new Set([sharedLine.trim()]), archiveLines: new Set([sharedLine.trim()]), batch: 1, now });
    expect(derivedOf(stub, "stub")?.omittedAsShown).toEqual([sharedLine.trim()]);
    expect(stub.content).not.toContain("settle_refund");
    const context = [
      userMessage("u0", "Fix the refund bug in src/payment."),
      archive("m1", 40, sharedLine.trimEnd()),
      assistantMessage("a5", "Where is the account?", [{ id: "c5", name: "grep", arguments: { pattern: "REFUND_ACCOUNT" } }]),
      stub,
      assistantMessage("a9", "I will run the tests.", [{ id: "c9", name: "bash", arguments: { command: "npm test" } }]),
      toolMessage("t9", "c9", "bash", "ok"),
    ];
    const planned = await plan(context, false);
    expect(planned.steps).toContain("condensed 1 archives");
    expect(visible(planned.messages)).toContain(sharedLine.trim());
  });

  it("clearing records in a stub the lines it left out because an archive shows them, and only those", () => {
    const result = toolMessage("t5", "c5", "grep", [sharedLine.trim(), ...Array.from({ length: 60 }, (_, index) => `${index}\tREFUND_${index} = "acct_${index}"  # src/payment/accounts_${index}.py`)].join("\n"));
    const context = [
      // The request shows one result line too: left out of the stub, but not recorded (no archive to condense shows it).
      userMessage("u0", "Fix the refund bug in src/payment. Start from:\n0\tREFUND_0 = \"acct_0\"  # src/payment/accounts_0.py"),
      archive("m1", 5, sharedLine.trimEnd()),
      assistantMessage("a5", "Where is the account?", [{ id: "c5", name: "grep", arguments: { pattern: "REFUND" } }]),
      result,
    ];
    const meter = createContextMeter(resolveCompressionSettings({ contextWindow: 20_000 }).counter);
    const cleared = planToolResultClearing(context, { keepRecentToolTokens: 0, countMessage: meter.countMessage, blobs: createBlobCollector(), batch: 2, now });
    expect(cleared.cleared).toBe(1);
    expect(derivedOf(cleared.messages[3]!, "stub")?.omittedAsShown).toEqual([sharedLine.trim()]);
    expect(cleared.messages[3]!.content.toString()).not.toContain("acct_0\"");
    expect(cleared.messages[3]!.content.toString()).toContain("acct_1\"");
  });
});
