import { readFile } from "node:fs/promises";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { planSessionReorder } from "./plan-session-reorder.js";
import { createSessionStore } from "./session-store.js";
import { createTempDirectory, samplePrefix, userMessage } from "./test-support/session-test-data.js";

let temp: Awaited<ReturnType<typeof createTempDirectory>>;
beforeEach(async () => {
  temp = await createTempDirectory();
});
afterEach(() => temp.remove());

/** A session file's lines as the writer records them: per call a user message, its request, its usage and the reply. */
async function sessionLines(calls: number): Promise<string[]> {
  const store = createSessionStore({ directory: temp.directory });
  const writer = await store.create({ id: "big", createdAt: "2026-11-30T04:15:02.118Z", prefix: samplePrefix });
  for (let index = 0; index < calls; index += 1) {
    writer.appendMessage(userMessage(`u${index}`, `question ${index}`));
    const request = writer.appendRequest({ messageCount: 2 * index + 1, tail: null, provider: "anthropic", model: "claude-sonnet-4-5", at: "2026-11-30T04:15:03.000Z" });
    writer.appendUsage(request, { inputTokens: 10, cachedInputTokens: 0, cacheWriteTokens: 0, outputTokens: 1, reasoningTokens: 0 });
    writer.appendMessage({ role: "assistant", content: [{ type: "text", text: "ok" }], stopReason: "stop", meta: { id: `a${index}`, origin: "model", createdAt: "2026-11-30T04:15:04.000Z" } });
  }
  await writer.close();
  return (await readFile(store.path("big"), "utf8")).split("\n").slice(0, -1);
}

const encode = (lines: readonly string[]) => new TextEncoder().encode(`${lines.join("\n")}\n`);

describe("planning the reorder of a large session", () => {
  // ~20k records: waiting records are filed under what they need, so each is retried only when that is placed.
  it("puts every swapped pair of a 20k-record file back, and leaves nothing out", async () => {
    const lines = await sessionLines(5000);
    const swapped = [...lines];
    const swaps: number[] = [];
    for (let call = 0; call < 5000; call += 97) {
      const request = 2 + 4 * call + 1; // 0-based index of request `call`; the user message sits just before it
      [swapped[request - 1], swapped[request]] = [swapped[request]!, swapped[request - 1]!];
      swaps.push(request); // 1-based line of the message, now after its request
    }
    const plan = planSessionReorder(encode(swapped));
    expect(plan).toBeDefined();
    expect(plan!.removed).toEqual([]);
    expect(plan!.moved).toEqual(swaps);
    expect(plan!.order.map((line) => swapped[line - 1])).toEqual(lines);
  });

  it("names the missing request of a 20k-record file with a gap, leaving out exactly what follows it", async () => {
    const lines = await sessionLines(5000);
    const gapAt = 2 + 4 * 2500 + 1; // request 2500
    const withGap = lines.filter((_, index) => index !== gapAt);
    const plan = planSessionReorder(encode(withGap));
    expect(plan).toMatchObject({ missingRequest: 2500, moved: [] });
    // Usage 2500 and every later request and usage: 1 + 2 × 2499.
    expect(plan!.removed).toHaveLength(1 + 2 * 2499);
    const removedTypes = new Set(plan!.removed.map((line) => (JSON.parse(withGap[line - 1]!) as { type: string }).type));
    expect([...removedTypes].sort()).toEqual(["request", "usage"]);
    expect(plan!.order).toHaveLength(withGap.length - plan!.removed.length);
  });
});
