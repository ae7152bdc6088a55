import { readFile, writeFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { useTempSessionStore, samplePrefix, startSampleSession, userMessage } from "./test-support/session-test-data.js";
import { sealRecord } from "./record-checksum.js";

const store = useTempSessionStore();

// Sealed like the writer's own records: these tests are about lines out of place, not edited ones.
const usageLine = (request: number) =>
  JSON.stringify(sealRecord({ type: "usage", request, usage: { inputTokens: 1, cachedInputTokens: 0, cacheWriteTokens: 0, outputTokens: 1, reasoningTokens: 0 } }));

/** Header, prefix and three user messages; returns the lines. */
async function writeSession(id: string): Promise<string[]> {
  const writer = await store.create({ id, createdAt: "2026-11-30T04:15:02.118Z", prefix: samplePrefix });
  for (let index = 0; index < 3; index += 1) writer.appendMessage(userMessage(`m${index}`, `message ${index}`));
  await writer.close();
  return (await readFile(store.path(id), "utf8")).split("\n").slice(0, -1);
}

const start = (id: string, repair?: boolean) => startSampleSession(store, id, repair);

// The trial that found it: of 300 fuzzed session files, a duplicated message line loaded with no
// warning and the rebuilt requests no longer matched what was sent.
describe("a session file with duplicated or stray lines", () => {
  it("warns about a duplicated message line, keeps it in the log and leaves it out of the context", async () => {
    const lines = await writeSession("dup");
    lines.splice(4, 0, lines[3]!);
    await writeFile(store.path("dup"), `${lines.join("\n")}\n`);
    const loaded = await store.load("dup");
    expect(loaded.messages.map((message) => message.meta.id)).toEqual(["m0", "m1", "m2"]);
    expect(loaded.log.map((message) => message.meta.id)).toEqual(["m0", "m1", "m1", "m2"]);
    expect(loaded.warnings).toEqual([expect.objectContaining({ code: "duplicate_message", line: 5, firstLine: 4, messageId: "m1", identical: true })]);
    expect(loaded.warnings[0]!.message).toContain("most likely a line written twice");
  });

  it("warns about usage without a request, and a second usage for one request, instead of failing or counting twice", async () => {
    const lines = await writeSession("usage");
    await writeFile(store.path("usage"), `${[...lines, usageLine(4)].join("\n")}\n`);
    const loaded = await store.load("usage");
    expect(loaded.usage).toEqual([]);
    expect(loaded.warnings).toEqual([expect.objectContaining({ code: "orphan_usage", line: 6 })]);
    expect(loaded.warnings[0]).toMatchObject({ record: { request: 4 } });
  });

  it("refuses to resume a damaged session without consent, and with it rewrites the file without the damaged lines, keeping the original", async () => {
    const lines = await writeSession("resume");
    const intact = `${lines.join("\n")}\n`;
    lines.splice(4, 0, lines[3]!);
    const damaged = `${[...lines, usageLine(7)].join("\n")}\n`;
    await writeFile(store.path("resume"), damaged);
    await expect(start("resume")).rejects.toMatchObject({ code: "session_needs_repair", message: expect.stringContaining("--repair") });
    expect(await readFile(store.path("resume"), "utf8")).toBe(damaged);

    const started = await start("resume", true);
    expect(started.messages.map((message) => message.meta.id)).toEqual(["m0", "m1", "m2"]);
    const backupPath = `${store.path("resume")}.before-repair`;
    expect(started.warnings).toEqual([expect.objectContaining({ code: "session_repaired", removedLines: [5, 7], backupPath })]);
    await started.session.close();
    expect(await readFile(backupPath, "utf8")).toBe(damaged);
    // The intact lines byte for byte (the resume then appends its own records).
    expect((await readFile(store.path("resume"), "utf8")).startsWith(intact)).toBe(true);
    expect((await store.load("resume")).warnings).toEqual([]);
  });

  it("never overwrites the copy an earlier repair kept", async () => {
    for (const round of [0, 1]) {
      const lines = await writeSessionOnce("again", round);
      await writeFile(store.path("again"), `${[...lines, usageLine(9)].join("\n")}\n`);
      const started = await start("again", true);
      await started.session.close();
      expect(started.warnings[0]).toMatchObject({ code: "session_repaired", backupPath: `${store.path("again")}${round === 0 ? ".before-repair" : ".before-repair-1"}` });
    }
    expect(await readFile(`${store.path("again")}.before-repair`, "utf8")).toContain('"request":9');
  });
});

/** The session's lines: written on the first round, read back after a repair on later ones. */
async function writeSessionOnce(id: string, round: number): Promise<string[]> {
  if (round === 0) return writeSession(id);
  return (await readFile(store.path(id), "utf8")).split("\n").slice(0, -1);
}
