import { readFile, writeFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { useTempSessionStore, samplePrefix, startSampleSession, userMessage } from "./test-support/session-test-data.js";

const store = useTempSessionStore();

/** Header, prefix, then per call: the user message, its request, its usage and the reply (lines 3–6, 7–10). */
async function writeAnsweredSession(id: string, calls: number): Promise<string[]> {
  const writer = await store.create({ id, createdAt: "2026-11-30T04:15:02.118Z", prefix: samplePrefix });
  for (let index = 0; index < calls; index += 1) {
    writer.appendMessage(userMessage(`u${index}`, `question ${index}`));
    const request = writer.appendRequest({ messageCount: 2 * index + 1, tail: null, provider: "anthropic", model: "claude-sonnet-4-5", at: "2026-11-30T04:15:03.000Z" });
    writer.appendUsage(request, { inputTokens: 100 + index, cachedInputTokens: 0, cacheWriteTokens: 0, outputTokens: 7, reasoningTokens: 0 });
    writer.appendMessage({ role: "assistant", content: [{ type: "text", text: `Answer ${index}.` }], stopReason: "stop", meta: { id: `a${index}`, origin: "model", createdAt: "2026-11-30T04:15:04.000Z" } });
  }
  await writer.close();
  return (await readFile(store.path(id), "utf8")).split("\n").slice(0, -1);
}

const start = (id: string, repair?: boolean) => startSampleSession(store, id, repair);

// Found in review: usage before its request loads (as an orphan), so the reorder was never tried and
// the consented repair deleted the line — its tokens lost, and the request then reported without usage.
describe("resuming a session whose usage line comes before its request", () => {
  it("is refused without consent, and the file is not changed", async () => {
    const lines = await writeAnsweredSession("usage-first", 2);
    const damaged = `${[...lines.slice(0, 7), lines[8], lines[7], ...lines.slice(9)].join("\n")}\n`; // usage 1 before request 1
    await writeFile(store.path("usage-first"), damaged);
    await expect(start("usage-first")).rejects.toMatchObject({ code: "session_needs_repair" });
    expect(await readFile(store.path("usage-first"), "utf8")).toBe(damaged);
  });

  it("with consent moves the usage after its request: its tokens are kept and nothing is removed", async () => {
    const lines = await writeAnsweredSession("usage-first", 2);
    const intact = `${lines.join("\n")}\n`;
    const damaged = `${[...lines.slice(0, 7), lines[8], lines[7], ...lines.slice(9)].join("\n")}\n`;
    await writeFile(store.path("usage-first"), damaged);
    expect((await store.load("usage-first")).warnings.map((warning) => warning.code)).toEqual(["orphan_usage", "missing_usage"]);

    const started = await start("usage-first", true);
    await started.session.close();
    expect(started.warnings).toEqual([expect.objectContaining({ code: "session_repaired", removedLines: [], movedLines: [8] })]);
    expect(started.warnings[0]!.message).toContain("put back in order");
    expect(started.calls).toHaveLength(2);
    expect(await readFile(`${store.path("usage-first")}.before-repair`, "utf8")).toBe(damaged);
    expect((await readFile(store.path("usage-first"), "utf8")).startsWith(intact)).toBe(true);
    await expect(readFile(`${store.path("usage-first")}.removed`)).rejects.toMatchObject({ code: "ENOENT" });
    const reloaded = await store.load("usage-first");
    expect(reloaded.warnings).toEqual([]);
    expect(reloaded.usage.map((usage) => [usage.request, usage.usage.inputTokens])).toEqual([
      [0, 100],
      [1, 101],
    ]);
  });

  it("with consent still leaves out usage whose request no line holds, naming it", async () => {
    const lines = await writeAnsweredSession("orphan", 1);
    const stray = lines[4]!.replace('"request":0', '"request":5');
    const damaged = `${[...lines.slice(0, 4), stray, ...lines.slice(4)].join("\n")}\n`; // a usage line for a request that never was
    await writeFile(store.path("orphan"), damaged);
    const started = await start("orphan", true);
    await started.session.close();
    expect(started.warnings).toEqual([expect.objectContaining({ code: "session_repaired", removedLines: [5] })]);
    expect(await readFile(`${store.path("orphan")}.removed`, "utf8")).toBe(`${stray}\n`);
    expect((await store.load("orphan")).warnings).toEqual([]);
  });
});
