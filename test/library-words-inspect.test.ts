import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createSessionStore, SessionError } from "../src/index.js";
import { importTranscript, inspectFiles } from "../src/inspect.js";

// A program reading sessions and transcripts was told to run a command it never runs: "Import other
// transcripts with `ctxkit inspect`", "pass --pricing <model | prices.json> for a cost". The library
// names its own functions and options first, the CLI's flag after "CLI:".
let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), "ctxkit-library-words-"));
});
afterEach(() => rm(directory, { recursive: true, force: true }));

describe("the inspect and session readers' advice names library calls", () => {
  it("a file that is not a ctxkit session names importTranscript and inspectFiles", async () => {
    await writeFile(join(directory, "20260101-000000-abcdef.jsonl"), `${JSON.stringify({ type: "header", format: "other-agent", version: 1 })}\n`);
    const error = await createSessionStore({ directory }).load("20260101-000000-abcdef").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SessionError);
    expect(error).toMatchObject({ code: "session_version_unsupported", message: expect.stringContaining("Read other transcripts with importTranscript or inspectFiles (ctxkit/inspect; CLI: ctxkit inspect)") });
  });

  it("a transcript of a model without prices names inspectFiles' pricing option before the flag", async () => {
    const file = join(directory, "requests.jsonl");
    const request = { model: "unpriced-model-x", messages: [{ role: "system", content: "s" }, { role: "user", content: "hi" }] };
    await writeFile(file, `${JSON.stringify(request)}\n`);
    const report = await inspectFiles([file], { format: "openai-log", tokenizer: "estimate" });
    const notes = report.transcripts.flatMap((transcript) => transcript.notes).join("\n");
    expect(notes).toContain("No prices for model unpriced-model-x; give prices for a cost (the `pricing` option of inspectFiles; CLI: --pricing <model | prices.json>).");
    expect(notes).not.toMatch(/; pass --pricing/);
  });
});

describe("importTranscript's format", () => {
  it("refuses a format it does not know with a TranscriptError listing the formats (it was a TypeError)", () => {
    expect(() => importTranscript("{}", "run.json", "auto" as never)).toThrow(expect.objectContaining({ name: "TranscriptError", code: "transcript_invalid", message: expect.stringContaining('Unknown transcript format "auto". Use one of: ctxkit,') }));
  });
});
