import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { CtxkitError } from "../../types/index.js";
import { detectTranscriptFormat } from "./detect-transcript-format.js";
import { importTranscript } from "./import-transcript.js";

// The importer battery's find: a recorded transcript whose one value was replaced by 5,000 nested
// arrays crashed the importers with "RangeError: Maximum call stack size exceeded".
describe("importing a transcript with absurdly deep nesting", () => {
  it.each(["openai-log.jsonl", "claude-code-session.jsonl", "tau-bench-trajectories.json", "mini-swe-agent-v2.traj.json"])("%s imports or is refused with a typed error", async (name) => {
    const text = await readFile(new URL(`./fixtures/${name}`, import.meta.url), "utf8");
    const deep = text.replace(/("role"\s*:\s*)"[^"]*"/, `$1${"[".repeat(5_000)}${"]".repeat(5_000)}`);
    expect(deep).not.toBe(text);
    try {
      importTranscript(deep, name, detectTranscriptFormat(name, deep));
    } catch (error) {
      expect(error).toBeInstanceOf(CtxkitError);
    }
  });
});
