import { mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { createNotes } from "./create-notes.js";

const context = { signal: new AbortController().signal, toolCallId: "c" };
const tail = (policy: ReturnType<typeof createNotes>) => policy.tail!({ trajectory: [], iteration: 0, now: new Date(0) });

async function notesIn(options: Partial<Parameters<typeof createNotes>[0]> = {}) {
  const directory = await mkdtemp(join(tmpdir(), "ctxkit-notes-"));
  const path = join(directory, "notes", "s1.md");
  const policy = createNotes({ path, ...options });
  const [read, write] = policy.tools! as [NonNullable<typeof policy.tools>[number], NonNullable<typeof policy.tools>[number]];
  return { path, policy, read, write };
}

describe("notes", () => {
  it("appends and replaces notes in their file, reads them back, and shows their size in the tail", async () => {
    const { path, policy, read, write } = await notesIn();
    expect(read.name).toBe("notes_read");
    expect(write.name).toBe("notes_write");
    expect([read.source, write.source, read.risk, write.risk]).toEqual(["trusted", "trusted", "read", "write"]);
    await policy.prepareContext!({} as never);
    expect(tail(policy)).toBeUndefined();
    expect(await read.execute({}, context)).toBe("The notes are empty.");

    expect(await write.execute({ text: "Decision: keep the v2 parser." }, context)).toBe("Notes updated: 30 characters in the session's notes file.");
    await write.execute({ text: "Failed: v3 breaks on CRLF files." }, context);
    expect(await readFile(path, "utf8")).toBe("Decision: keep the v2 parser.\n\nFailed: v3 breaks on CRLF files.\n");
    expect(await read.execute({}, context)).toBe("Decision: keep the v2 parser.\n\nFailed: v3 breaks on CRLF files.\n");
    expect(tail(policy)).toBe("<agent_notes>\nnotes: 64 characters in the session's notes file, outside the conversation; notes_read reads them\n</agent_notes>");

    await write.execute({ text: "Only this.", mode: "replace" }, context);
    expect(await readFile(path, "utf8")).toBe("Only this.\n");
  });

  it("refuses notes over their limit with a hint for the model, keeping the old ones", async () => {
    const { path, write } = await notesIn({ maxCharacters: 40 });
    await write.execute({ text: "Short note." }, context);
    await expect(write.execute({ text: "x".repeat(40) }, context)).rejects.toMatchObject({ kind: "invalid_arguments", message: expect.stringContaining('{"mode": "replace"}') });
    expect(await readFile(path, "utf8")).toBe("Short note.\n");
  });

  it("reads a workspace file edited outside ctxkit within its bound, and measures it before each call", async () => {
    const { path, policy, read } = await notesIn({ label: "NOTES.md", source: "workspace", maxCharacters: 10 });
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, `${"line one\n".repeat(20)}`);
    await policy.prepareContext!({} as never);
    expect(tail(policy)).toContain("characters in NOTES.md");
    const text = (await read.execute({}, context)) as string;
    const [shown, note] = text.split("\n\n[… cut: ");
    expect(shown!.length).toBeLessThanOrEqual(40);
    expect(shown!.endsWith("line one")).toBe(true);
    expect(note).toBe("NOTES.md has 180 bytes; only its start is shown]");
  });

  it("points to the notes after a compaction, with checkpoint metadata", async () => {
    const { policy, write } = await notesIn();
    expect(policy.checkpoint!([], new Date(0), "cp")).toBeUndefined();
    await write.execute({ text: "Constraint: never touch prod." }, context);
    const pointer = policy.checkpoint!([], new Date(0), "cp")!;
    expect(pointer.meta.derived).toEqual({ kind: "checkpoint", policy: "notes", data: { characters: 30 } });
    expect(pointer.content).toContain("read them with notes_read");
  });

  it("never appends to a file edited past what a read returns (its end would be lost), and says a read is cut", async () => {
    const { path, read, write } = await notesIn({ maxCharacters: 100 });
    await mkdir(dirname(path), { recursive: true });
    // A short first line, then one longer than the 400 bytes a read takes: the read returns the first line alone.
    const edited = `Keep the v2 parser.\n${"log ".repeat(200)}\n`;
    await writeFile(path, edited);
    expect(await read.execute({}, context)).toBe("Keep the v2 parser.\n\n[… cut: the session's notes file has 821 bytes; only its start is shown]");
    await expect(write.execute({ text: "One more." }, context)).rejects.toThrow(
      "the session's notes file has 821 bytes, more than notes_read reads, so appending would lose its end. Rewrite the notes shorter with {\"mode\": \"replace\"}",
    );
    expect(await readFile(path, "utf8")).toBe(edited);
    await write.execute({ text: "Condensed.", mode: "replace" }, context);
    expect(await readFile(path, "utf8")).toBe("Condensed.\n");
  });
});

describe("notes put back for a run executed again (replay)", () => {
  it("puts the notes and their provenance back as the replay says the run started, once, before the first look at them", async () => {
    const directory = await mkdtemp(join(tmpdir(), "ctxkit-notes-"));
    const path = join(directory, "notes", "s1.md");
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, "Written later.\n");
    const provenance = `${JSON.stringify({ untrusted: [{ source: "web_fetch", trust: "external" }] })}\n`;
    let asked = 0;
    const policy = createNotes({ path, replay: { startingNotes: async () => (asked++, { notes: "Started with.\n", provenance }) } });
    const [read] = policy.tools! as [NonNullable<typeof policy.tools>[number]];
    await policy.prepareContext!({} as never);
    expect(tail(policy)).toContain("notes: 14 characters");
    expect(await read.execute({}, context)).toEqual({ content: "Started with.\n", source: "external" });
    expect(await readFile(`${path}.provenance.json`, "utf8")).toBe(provenance);
    expect(asked).toBe(1);
  });

  it("refuses a replay for notes others may edit (a workspace file is never put back)", () => {
    expect(() => createNotes({ path: "/tmp/NOTES.md", source: "workspace", replay: { startingNotes: (current) => current() } })).toThrow(expect.objectContaining({ code: "option_invalid" }));
  });

  it("refuses to record notes larger than the tools ever write (the snapshot is one step's row), saying how to fix it", async () => {
    const directory = await mkdtemp(join(tmpdir(), "ctxkit-notes-"));
    const path = join(directory, "s1.md");
    await writeFile(path, "x".repeat(401));
    const policy = createNotes({ path, maxCharacters: 100, replay: { startingNotes: (current) => current() } });
    await expect(policy.prepareContext!({} as never)).rejects.toMatchObject({ code: "option_invalid", message: expect.stringContaining("holds 401 bytes, more than the 400") });
  });

  it("puts recorded notes back over larger ones a crash left (only what is recorded is bounded)", async () => {
    const directory = await mkdtemp(join(tmpdir(), "ctxkit-notes-"));
    const path = join(directory, "s1.md");
    await writeFile(`${path}.provenance.json`, `${JSON.stringify({ untrusted: [{ source: "x".repeat(500), trust: "external" }] })}\n`);
    const policy = createNotes({ path, maxCharacters: 100, replay: { startingNotes: async () => ({ notes: "Started with.\n", provenance: null }) } });
    await policy.prepareContext!({} as never);
    expect(await readFile(path, "utf8")).toBe("Started with.\n");
    await expect(readFile(`${path}.provenance.json`, "utf8")).rejects.toMatchObject({ code: "ENOENT" });
  });
});
