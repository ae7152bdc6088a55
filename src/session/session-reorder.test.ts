import { readFile, writeFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { planSessionReorder } from "./plan-session-reorder.js";
import { useTempSessionStore, samplePrefix, startSampleSession, userMessage } from "./test-support/session-test-data.js";

const store = useTempSessionStore();

/** Header, prefix, then per call: a message, its request and its usage (lines 3–5, 6–8, 9–11). */
async function writeSession(id: string): Promise<string[]> {
  const writer = await store.create({ id, createdAt: "2026-11-30T04:15:02.118Z", prefix: samplePrefix });
  for (let index = 0; index < 3; index += 1) {
    writer.appendMessage(userMessage(`m${index}`, `message ${index}`));
    const request = writer.appendRequest({ messageCount: index + 1, tail: null, provider: "anthropic", model: "claude-sonnet-4-5", at: "2026-11-30T04:15:03.000Z" });
    writer.appendUsage(request, { inputTokens: 10, cachedInputTokens: 0, cacheWriteTokens: 0, outputTokens: 1, reasoningTokens: 0 });
  }
  await writer.close();
  return (await readFile(store.path(id), "utf8")).split("\n").slice(0, -1);
}

const start = (id: string, repair?: boolean) => startSampleSession(store, id, repair);

const swap = (lines: string[], at: number): string[] => {
  const swapped = [...lines];
  [swapped[at], swapped[at + 1]] = [swapped[at + 1]!, swapped[at]!];
  return swapped;
};

// The leftover of the fuzzed session files: swapped lines the loader refuses (a request before the
// message it sent) could be neither resumed nor repaired.
describe("resuming a session whose records are out of order", () => {
  it("is refused without consent, naming --repair, and the file is not changed", async () => {
    const damaged = `${swap(await writeSession("order"), 5).join("\n")}\n`; // request 1 before message m1
    await writeFile(store.path("order"), damaged);
    await expect(store.load("order")).rejects.toMatchObject({ code: "session_corrupt" });
    await expect(start("order")).rejects.toMatchObject({ code: "session_needs_repair", message: expect.stringContaining("--repair") });
    expect(await readFile(store.path("order"), "utf8")).toBe(damaged);
  });

  it("with consent puts the records back in order, losing nothing, and keeps the original", async () => {
    const lines = await writeSession("order");
    const intact = `${lines.join("\n")}\n`;
    const damaged = `${swap(swap(lines, 5), 3).join("\n")}\n`; // usage 0 before request 0; request 1 before m1
    await writeFile(store.path("order"), damaged);
    const started = await start("order", true);
    await started.session.close();
    expect(started.warnings).toEqual([expect.objectContaining({ code: "session_repaired", removedLines: [], movedLines: [4, 6] })]);
    expect(started.warnings[0]!.message).toContain("out of order");
    expect(started.messages.map((message) => message.meta.id)).toEqual(["m0", "m1", "m2"]);
    expect(await readFile(`${store.path("order")}.before-repair`, "utf8")).toBe(damaged);
    expect((await readFile(store.path("order"), "utf8")).startsWith(intact)).toBe(true);
    const reloaded = await store.load("order");
    expect(reloaded.warnings).toEqual([]);
    expect(reloaded.usage.map((usage) => usage.request)).toEqual([0, 1, 2]);
  });

  it("leaves out a record nothing can follow, and keeps it in the .removed file", async () => {
    const lines = await writeSession("gap");
    const dropped = lines.filter((_, index) => index !== 3); // request 0 is gone: requests 1 and 2 can never be numbered right
    await writeFile(store.path("gap"), `${dropped.join("\n")}\n`);
    const plan = planSessionReorder(new TextEncoder().encode(`${dropped.join("\n")}\n`));
    expect(plan).toMatchObject({ removed: [4, 6, 7, 9, 10], missingRequest: 0 });
    const started = await start("gap", true);
    await started.session.close();
    expect(started.messages.map((message) => message.meta.id)).toEqual(["m0", "m1", "m2"]);
    expect(started.warnings[0]).toMatchObject({ code: "session_repaired", removedLines: [4, 6, 7, 9, 10] });
    // The loader cannot accept a gap in the request numbers; the message says what was lost, and why.
    expect(started.warnings[0]!.message).toContain("request 0 is missing from the file");
    expect(started.warnings[0]!.message).toContain(`5 records were moved to ${store.path("gap")}.removed`);
    expect(await readFile(`${store.path("gap")}.removed`, "utf8")).toBe(`${[dropped[3], dropped[5], dropped[6], dropped[8], dropped[9]].join("\n")}\n`);
  });

  it("does not take other damage for disorder", () => {
    expect(planSessionReorder(new TextEncoder().encode('{"type":"header"}\nnot json\n'))).toBeUndefined();
  });
});

// Found by the session-file battery: a dropped usage line (or a damaged body hash) loaded clean.
describe("a session file with a lost usage line or a damaged hash", () => {
  it("warns that an answered request has no usage", async () => {
    const writer = await store.create({ id: "usage", createdAt: "2026-11-30T04:15:02.118Z", prefix: samplePrefix });
    writer.appendMessage(userMessage("m0", "hello"));
    const request = writer.appendRequest({ messageCount: 1, tail: null, provider: "anthropic", model: "claude-sonnet-4-5", at: "2026-11-30T04:15:03.000Z" });
    writer.appendUsage(request, { inputTokens: 10, cachedInputTokens: 0, cacheWriteTokens: 0, outputTokens: 1, reasoningTokens: 0 });
    writer.appendMessage({ role: "assistant", content: [{ type: "text", text: "Hi." }], stopReason: "stop", meta: { id: "m1", origin: "model", createdAt: "2026-11-30T04:15:04.000Z" } });
    await writer.close();
    expect((await store.load("usage")).warnings).toEqual([]);
    const lines = (await readFile(store.path("usage"), "utf8")).split("\n").slice(0, -1);
    await writeFile(store.path("usage"), `${lines.filter((line) => !line.startsWith('{"type":"usage"')).join("\n")}\n`);
    const loaded = await store.load("usage");
    expect(loaded.warnings).toEqual([expect.objectContaining({ code: "missing_usage", request: 0, line: 4 })]);
    expect(loaded.warnings[0]!.message).toContain("a usage line is most likely missing");
  });

  it("refuses a request record whose body hash is not a sha256 digest", async () => {
    const writer = await store.create({ id: "hash", createdAt: "2026-11-30T04:15:02.118Z", prefix: samplePrefix });
    writer.appendMessage(userMessage("m0", "hello"));
    writer.appendRequest({ messageCount: 1, tail: null, provider: "anthropic", model: "claude-sonnet-4-5", at: "2026-11-30T04:15:03.000Z", bodyHash: `sha256:${"a".repeat(64)}` });
    await writer.close();
    const text = await readFile(store.path("hash"), "utf8");
    await writeFile(store.path("hash"), text.replace(`sha256:${"a".repeat(64)}`, `sha256:${"a".repeat(30)}/${"a".repeat(33)}`));
    await expect(store.load("hash")).rejects.toMatchObject({ code: "session_corrupt", message: expect.stringContaining("bodyHash") });
  });
});
