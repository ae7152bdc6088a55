import { describe, expect, it } from "vitest";
import type { Message } from "../../types/index.js";
import { createArchiveMessage } from "./archive-turns.js";
import { resolveCompressionSettings } from "./compression-options.js";
import { emptyCompressionStats } from "./compression-stats.js";
import { createContextMeter } from "./context-meter.js";
import { planCompression } from "./plan-compression.js";
import { assistantMessage, toolMessage, userMessage } from "./test-support/trajectory-builder.js";

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

  it("condenses after a context overflow too, before summarising everything", async () => {
    const result = await plan(contextWithTwoArchives(), true);
    expect(result.steps).toContain("condensed 1 archives");
    expect(result.fullCompaction).toBe(false);
    expect(visible(result.messages)).toContain("- m1: read_file");
    expect(visible(result.messages)).toContain(sharedLine.trim());
  });
});
