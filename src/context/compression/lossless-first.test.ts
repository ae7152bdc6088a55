import { describe, expect, it } from "vitest";
import type { Message } from "../../types/index.js";
import { applyEdits } from "../compose-context-policies.js";
import { createCompressionPolicy } from "./create-compression-policy.js";
import { extractFactLines } from "./extract-fact-lines.js";
import { assistantMessage, contextState, readingSession, toolMessage, userMessage } from "./test-support/trajectory-builder.js";

/** A τ-bench-like tool result: one JSON record per line, each line holding ids found nowhere else. */
function reservations(turn: number): string {
  return Array.from({ length: 40 }, (_, index) =>
    JSON.stringify({ reservation_id: `res_${turn}_${index}`, user_id: `user_${turn}_${index}`, payment_id: `gift_card_${turn}${index}`, flights: [{ flight_number: `HAT${100 + index}`, date: "2024-05-25", price: 100 + index }] }),
  ).join("\n");
}

function lookupSession(turns: number): Message[] {
  const messages: Message[] = [userMessage("u0", "Change my reservation to economy.")];
  for (let turn = 1; turn <= turns; turn += 1) {
    messages.push(assistantMessage(`a${turn}`, "", [{ id: `c${turn}`, name: "get_reservations", arguments: { page: turn } }]));
    messages.push(toolMessage(`t${turn}`, `c${turn}`, "get_reservations", reservations(turn)));
  }
  return messages;
}

describe("compression that loses no fact unless it must", () => {
  it("keeps a window around each identifier of a long line, not only the first", () => {
    const record = JSON.stringify({ payment_methods: { gift_card_8190333: { amount: 280 }, padding: "x".repeat(600), credit_card_7407366: { brand: "visa", last_four: "6437" } } });
    const lines = extractFactLines(record, { maxChars: 4000 });
    expect(lines.length).toBeGreaterThan(1);
    const kept = lines.join("\n");
    expect(kept).toContain('"gift_card_8190333":{"amount":280}');
    expect(kept).toContain('"credit_card_7407366":{"brand":"visa","last_four":"6437"}');
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(300);
  });

  it("leaves dense results alone in an optional batch when their stubs would drop identifiers", async () => {
    // Records in a 60k window: past the early trigger, far from the 80% one; only the newest
    // results are protected from clearing.
    const messages = lookupSession(8);
    const options = { contextWindow: 60_000, expectedRemainingCalls: 30, keepRecentToolTokens: 1000 };
    const careful = createCompressionPolicy("ctxkit", options);
    expect(await careful.prepareContext!(contextState(messages))).toEqual([]);
    // The same batch is made, and drops ids, when optional batches may lose facts.
    const lossy = createCompressionPolicy("ctxkit", { ...options, earlyCoverage: 0 });
    const edits = (await lossy.prepareContext!(contextState(messages)))!;
    expect(edits).toHaveLength(1);
    const after = applyEdits(messages, edits).map((message) => message.content.toString()).join("\n");
    expect(after).not.toContain('"user_id":"user_1_39"');
  });

  it("archives instead of compacting fully when that brings the context under the compaction floor", async () => {
    // 137% of a 20k window: clearing alone gets it to about 59% — short of the 50% target.
    const messages = readingSession(16, 40);
    const floored = createCompressionPolicy("ctxkit", { contextWindow: 20_000 });
    const edits = (await floored.prepareContext!(contextState(messages)))!;
    expect(edits).toHaveLength(1);
    expect(floored.stats()).toMatchObject({ fullCompactions: 0, compactions: 1 });
    const after = applyEdits(messages, edits);
    expect(after.some((message) => message.content.toString().startsWith("[COMPRESSED] Summary"))).toBe(false);
    // With the floor at the target (and no archive condensing, which would reach it), the same context is summarised.
    const summarising = createCompressionPolicy("ctxkit", { contextWindow: 20_000, compactionFloor: 0.5, condenseShare: 0 });
    await summarising.prepareContext!(contextState(messages));
    expect(summarising.stats().fullCompactions).toBe(1);
  });
});
