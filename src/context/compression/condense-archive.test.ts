import { describe, expect, it } from "vitest";
import type { Message } from "../../types/index.js";
import { applyEdits } from "../compose-context-policies.js";
import { createArchiveMessage } from "./archive-turns.js";
import { condenseArchive } from "./condense-archive.js";
import { createCompressionPolicy } from "./create-compression-policy.js";
import { contextState, readingSession } from "./test-support/trajectory-builder.js";

const now = new Date("2026-01-01T00:00:00.000Z");

/** An archive of three turns: a large listing and two small reads, every fact line distinct. */
function archiveOfThreeTurns(): Extract<Message, { role: "user" }> {
  const turn = (label: string, facts: number) => [`- ${label}: bash {"command":"cat ${label}.py"} → ok`, ...Array.from({ length: facts }, (_, index) => `  ${label}_line_${index} = compute_${label}_${index}()`)].join("\n");
  const sources = ["m1", "m2", "m3"].map((id) => ({ label: id, kind: "assistant" as const, text: id, messageId: id }));
  const archive = createArchiveMessage({ start: 1, end: 7, sources }, [turn("m1", 40), turn("m2", 4), turn("m3", 4)].join("\n"), 1, now);
  return archive as Extract<Message, { role: "user" }>;
}

describe("condensing an archive before anything is summarised", () => {
  it("keeps every turn's first line and cuts the largest turn first, as a new archive of the same turns", () => {
    const archive = archiveOfThreeTurns();
    const condensed = condenseArchive(archive, 0.4, 5, now)!;
    const before = archive.content.split("\n");
    const after = condensed.content.toString().split("\n");
    // Still the archive's header and every turn's gist line (what recall takes), verbatim.
    expect(after[0]).toBe(before[0]);
    for (const gist of before.filter((line) => line.startsWith("- "))) expect(after).toContain(gist);
    // Only lines of the original, fewer of them: about 40% of the fact lines' characters.
    for (const line of after) expect(before).toContain(line);
    const factChars = (lines: string[]) => lines.filter((line) => line.startsWith("  ")).join("\n").length;
    expect(factChars(after)).toBeLessThanOrEqual(factChars(before) * 0.4 + 1);
    expect(factChars(after)).toBeGreaterThan(factChars(before) * 0.3);
    // Per-turn budgets: the two small reads keep all their lines, the large listing pays.
    for (const label of ["m2", "m3"]) for (let index = 0; index < 4; index += 1) expect(after).toContain(`  ${label}_line_${index} = compute_${label}_${index}()`);
    expect(after.filter((line) => line.startsWith("  m1_")).length).toBeLessThan(40);
    // A new message of this batch for the same turns.
    expect(condensed.meta.id).not.toBe(archive.meta.id);
    expect(condensed.meta.derived).toMatchObject({ kind: "archive", replaces: ["m1", "m2", "m3"], batch: 5 });
  });

  it("skips a line too long for what is left of its turn's cap and still keeps the shorter lines after it", () => {
    const long = `  long_line = ${"x".repeat(400)}`;
    const short = (index: number) => `  short_${index} = ${index}`;
    const lines = [`- m1: bash {"command":"cat m1.py"} → ok`, short(0), long, short(1), short(2)];
    const archive = createArchiveMessage({ start: 1, end: 3, sources: [{ label: "m1", kind: "assistant", text: "m1", messageId: "m1" }] }, lines.join("\n"), 1, now) as Extract<Message, { role: "user" }>;
    const after = condenseArchive(archive, 0.3, 5, now)!.content.toString().split("\n");
    expect(after).not.toContain(long);
    for (const index of [0, 1, 2]) expect(after).toContain(short(index));
  });

  it("keeps the lines it is told a later archive left out because this one shows them, whatever the cap", () => {
    const archive = archiveOfThreeTurns();
    const shownOnlyHere = "  m1_line_39 = compute_m1_39()";
    expect(condenseArchive(archive, 0.4, 5, now)!.content.toString().split("\n")).not.toContain(shownOnlyHere);
    const kept = condenseArchive(archive, 0.4, 5, now, new Set([shownOnlyHere.trim()]))!.content.toString().split("\n");
    expect(kept).toContain(shownOnlyHere);
    // On top of the turn's cap: it costs no other line.
    expect(kept.filter((line) => line !== shownOnlyHere)).toEqual(condenseArchive(archive, 0.4, 5, now)!.content.toString().split("\n"));
  });

  it("keeps the lines that name something before number-only lines, each in order", () => {
    const named = (index: number) => `  ${2100 + index}\t        self.handle_${index} = compute_${index}()`;
    const bare = (index: number) => `  ${2200 + index}\t        else:`;
    const lines = [`- m1: bash {"command":"nl -ba widgets.py"} → ok`, bare(0), named(0), bare(1), named(1), bare(2), named(2)];
    const archive = createArchiveMessage({ start: 1, end: 3, sources: [{ label: "m1", kind: "assistant", text: "m1", messageId: "m1" }] }, lines.join("\n"), 1, now) as Extract<Message, { role: "user" }>;
    // Room for the three named lines (43 characters each of 192), not for a bare one on top.
    const after = condenseArchive(archive, 0.7, 5, now)!.content.toString().split("\n");
    expect(after.slice(1)).toEqual([lines[0], named(0), named(1), named(2)]);
  });

  it("returns nothing when nothing would go", () => {
    const archive = archiveOfThreeTurns();
    expect(condenseArchive(archive, 1, 5, now)).toBeUndefined();
  });

  it("condenses older archives instead of summarising when that brings the context under the compaction floor", async () => {
    // A long reading session, one call at a time: archives pile up until archiving the newest turns
    // is no longer enough.
    // Summaries here keep no lines beside them (`summaryLineShare` 0): the layer is weighed against
    // a summary alone (summary-fact-lines.test.ts pins the lines a summary keeps).
    const drive = async (options: { condenseShare?: number }) => {
      const policy = createCompressionPolicy("ctxkit", { contextWindow: 20_000, expectedRemainingCalls: 0, summaryLineShare: 0, ...options });
      const all = readingSession(40, 40);
      let context: readonly Message[] = [all[0]!];
      for (let turn = 1; turn <= 40; turn += 1) {
        context = [...context, all[2 * turn - 1]!, all[2 * turn]!];
        context = applyEdits(context, (await policy.prepareContext!(contextState(context))) ?? []);
      }
      return { stats: policy.stats(), context };
    };
    const condensing = await drive({});
    expect(condensing.stats.reasons.some((reason) => /condensed \d+ archives/.test(reason))).toBe(true);
    // Without the layer the same run needs summaries, which lose the archived lines.
    const summarising = await drive({ condenseShare: 0 });
    expect(summarising.stats.fullCompactions).toBeGreaterThan(condensing.stats.fullCompactions);
    const visible = (context: readonly Message[]) => context.map((message) => message.content.toString()).join("\n");
    const keptLines = (context: readonly Message[]) => all40Lines().filter((line) => visible(context).includes(line)).length;
    expect(keptLines(condensing.context)).toBeGreaterThan(keptLines(summarising.context));
  });
});

/** Every line of the reading session's results, trimmed. */
function all40Lines(): string[] {
  return readingSession(40, 40)
    .filter((message) => message.role === "tool")
    .flatMap((message) => message.content.toString().split("\n").map((line) => line.trim()));
}
