import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "./run-cli.js";

/** The OpenAI request-log fixture with one byte made invalid (0xff never occurs in UTF-8) on its second line. */
async function transcriptWithBadByte(): Promise<{ cwd: string; file: string; offset: number }> {
  const cwd = await mkdtemp(join(tmpdir(), "ctxkit-invalid-utf8-"));
  const bytes = await readFile(resolve("src/inspect/importers/fixtures/openai-log.jsonl"));
  const offset = bytes.indexOf("Lisbon", bytes.indexOf(0x0a) + 1);
  bytes[offset] = 0xff;
  const file = join(cwd, "requests.jsonl");
  await writeFile(file, bytes);
  return { cwd, file, offset };
}

// A transcript with a bad byte was imported with U+FFFD in its text and nothing said (a session file is refused).
describe("a transcript that is not valid UTF-8", () => {
  it("is inspected with a note naming the file and its first bad byte", async () => {
    const { cwd, file, offset } = await transcriptWithBadByte();
    const run = await runCli(["inspect", "requests.jsonl", "--tokenizer", "estimate"], { cwd });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`note: ${file} is not valid UTF-8: its first invalid byte is at offset ${offset} (line 2).`);
    const json = await runCli(["inspect", "requests.jsonl", "--tokenizer", "estimate", "--json"], { cwd });
    const report = JSON.parse(json.stdout) as { transcripts: Array<{ notes: string[] }> };
    expect(report.transcripts[0]!.notes).toContainEqual(expect.stringContaining(`is not valid UTF-8: its first invalid byte is at offset ${offset} (line 2)`));
  });

  it("is replayed with the same warning among the problems", async () => {
    const { cwd, file, offset } = await transcriptWithBadByte();
    const run = await runCli(["replay", "requests.jsonl", "--policy", "none", "--window", "32000", "--json"], { cwd, timeoutMs: 60_000 });
    expect(run.stderr).toContain(`ctxkit replay: ${file}: not valid UTF-8: its first invalid byte is at offset ${offset} (line 2).`);
    const report = JSON.parse(run.stdout) as { problems: Array<{ file: string; line?: number; reason: string }> };
    expect(report.problems).toContainEqual({ file, line: 2, reason: expect.stringContaining("Invalid bytes were read as U+FFFD") });
  });
});
