import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importTranscriptFiles } from "./import-transcript-files.js";

const fixture = (name: string) => fileURLToPath(new URL(`fixtures/${name}`, import.meta.url));
let directory: string;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), "ctxkit-import-"));
});
afterAll(() => rm(directory, { recursive: true, force: true }));

describe("importTranscriptFiles", () => {
  it("detects each file's format and imports them all, with problems naming their file", async () => {
    const files = ["openai-log.jsonl", "claude-code-session.jsonl", "codex-rollout.jsonl", "mini-swe-agent.traj.json"].map(fixture);
    const { transcripts, problems } = await importTranscriptFiles(files);
    expect(transcripts.map((transcript) => transcript.format)).toEqual(["openai-log", "claude-code", "codex", "mini-swe-agent"]);
    expect(new Set(problems.map((problem) => problem.file))).toEqual(new Set([files[0], files[1], files[2]]));
  });

  it("uses the format it is given", async () => {
    const { transcripts, problems } = await importTranscriptFiles([fixture("mini-swe-agent.traj.json")], { format: "tau-bench" });
    expect(transcripts).toEqual([]);
    expect(problems[0]?.reason).toContain("expected an array");
  });

  it("reports unreadable and empty files and still imports the others", async () => {
    const empty = join(directory, "empty.jsonl");
    await writeFile(empty, "\n");
    const { transcripts, problems } = await importTranscriptFiles([join(directory, "missing.jsonl"), empty, fixture("openai-log.jsonl")]);
    expect(transcripts).toHaveLength(1);
    expect(problems.slice(0, 2)).toEqual([
      { file: join(directory, "missing.jsonl"), reason: expect.stringContaining("cannot read the file") },
      { file: empty, reason: "the file is empty" },
    ]);
  });

  it("keeps transcript ids unique when two files hold the same run", async () => {
    const file = fixture("mini-swe-agent.traj.json");
    const { transcripts } = await importTranscriptFiles([file, file]);
    expect(transcripts.map((transcript) => transcript.id)).toEqual(["weather__cli-101", "weather__cli-101#2"]);
  });

  it("throws transcript_invalid for an unknown format option or an undetectable file", async () => {
    const notes = join(directory, "notes.txt");
    await writeFile(notes, "just some notes\n");
    await expect(importTranscriptFiles([notes])).rejects.toMatchObject({ code: "transcript_invalid", message: expect.stringContaining("--format") });
    await expect(importTranscriptFiles([notes], { format: "langchain" as never })).rejects.toMatchObject({ code: "transcript_invalid", message: expect.stringContaining("Set the `format` option (CLI: --format)") });
  });
});

describe("importTranscriptFiles with a file that is not valid UTF-8", () => {
  it("imports it, with a note naming the file and its first bad byte's offset and line", async () => {
    const file = join(directory, "bad-byte.jsonl");
    const record = (content: string) => JSON.stringify({ request: { model: "gpt-4o-mini", messages: [{ role: "user", content }] }, response: { usage: { prompt_tokens: 9, completion_tokens: 1 } } });
    const first = Buffer.from(`${record("hello")}\n`);
    const second = Buffer.from(`${record("caf\u00e9 BAD")}\n`);
    // A cut multi-byte character: "é" (c3 a9) with its second byte lost, just before " BAD".
    const cut = second.indexOf(0xa9);
    await writeFile(file, Buffer.concat([first, second.subarray(0, cut), second.subarray(cut + 1)]));
    const { transcripts, problems } = await importTranscriptFiles([file]);
    expect(problems).toEqual([]);
    expect(transcripts).toHaveLength(1);
    expect(transcripts[0]!.calls).toHaveLength(2);
    expect(transcripts[0]!.invalidUtf8).toEqual({ byte: first.length + cut - 1, line: 2 });
    expect(transcripts[0]!.notes).toContain(
      `${file} is not valid UTF-8: its first invalid byte is at offset ${first.length + cut - 1} (line 2). Invalid bytes were read as U+FFFD (�) and the rest was imported; text and token counts there may differ from what the model saw.`,
    );
  });

  it("gives no such note for a valid file", async () => {
    const { transcripts } = await importTranscriptFiles([fixture("openai-log.jsonl")]);
    expect(transcripts[0]!.invalidUtf8).toBeUndefined();
    expect(transcripts[0]!.notes ?? []).not.toEqual(expect.arrayContaining([expect.stringContaining("not valid UTF-8")]));
  });
});
