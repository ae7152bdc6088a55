import { readFile, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createOpenAICompatible } from "../providers/openai-compatible/index.js";
import { rebuildRequest, verifyRebuiltRequest } from "./rebuild-request.js";
import { createSessionStore } from "./session-store.js";
import { useTempSessionStore } from "./test-support/session-test-data.js";

// Issue 30: of 300 mutated session files, 12 loaded and resumed with no warning — two had lost their
// final record (the final answer gone while run_end still said final_answer; the last tool message
// of a compacted session gone) — 16 more were refused only at resume, blaming "the provider's code
// or the generation settings", and one trailing blank line made a file unreadable.
const fixture = (name: string) => readFile(fileURLToPath(new URL(`./fixtures/${name}.jsonl`, import.meta.url)), "utf8");
// The fixtures were recorded from a scripted model behind vLLM's wire format.
const provider = createOpenAICompatible({ vendor: "vllm", model: "Qwen/Qwen3-8B", baseURL: "http://127.0.0.1:9/v1" });

const store = useTempSessionStore();

async function loadEdited(name: string, edit: (lines: string[]) => string[]) {
  const lines = (await fixture(name)).trimEnd().split("\n");
  await writeFile(store.path("edited"), `${edit(lines).join("\n")}\n`);
  return store.load("edited");
}

const indexOf = (lines: string[], test: (record: Record<string, unknown>) => boolean): number => lines.findLastIndex((line) => test(JSON.parse(line) as Record<string, unknown>));
const isFinalAnswer = (record: Record<string, unknown>) => record.type === "message" && (record.message as { role: string }).role === "assistant";
const isToolMessage = (record: Record<string, unknown>) => record.type === "message" && (record.message as { role: string }).role === "tool";

describe("a session file that disagrees with itself", () => {
  it.each(["v3-derived", "v4-sealed"])("%s without its final answer warns, naming the run_end line", async (name) => {
    const session = await loadEdited(name, (lines) => lines.filter((_, index) => index !== indexOf(lines, isFinalAnswer)));
    const runEndLine = session.runs.length > 0 ? 43 : 0;
    expect(session.warnings).toContainEqual(expect.objectContaining({ code: "records_disagree", line: runEndLine, message: expect.stringMatching(/^Line 43 .*final_answer.*edited/) }));
  });

  it("a compacted session without its last tool message warns, naming the run_end after it", async () => {
    // The run as it would end at max_iterations right after its last tool result; then that result is removed.
    const endAtLastTool = (lines: string[]): string[] => {
      const kept = lines.slice(0, indexOf(lines, isToolMessage) + 1);
      const usage = { inputTokens: 0, cachedInputTokens: 0, cacheWriteTokens: 0, outputTokens: 0, reasoningTokens: 0 };
      for (const line of kept) {
        const record = JSON.parse(line) as { type: string; usage?: typeof usage };
        if (record.type === "usage") for (const key of Object.keys(usage) as Array<keyof typeof usage>) usage[key] += record.usage![key];
      }
      return [...kept, JSON.stringify({ type: "run_end", runId: "m_0", stopReason: "max_iterations", usage, iterations: 7, at: "2026-12-01T08:01:00.000Z" })];
    };
    const intact = await loadEdited("v3-derived", endAtLastTool);
    expect(intact.edits.length).toBeGreaterThan(0);
    expect(intact.warnings).toEqual([]);
    const session = await loadEdited("v3-derived", (lines) => {
      const ended = endAtLastTool(lines);
      return ended.filter((_, index) => index !== indexOf(ended, isToolMessage));
    });
    expect(session.warnings).toEqual([expect.objectContaining({ code: "records_disagree", line: 39, message: expect.stringContaining("call_6_0 (line 38) left without a result") })]);
  });

  it("a usage figure changed to another valid number warns twice: the checksum, and the run total", async () => {
    const session = await loadEdited("v4-sealed", (lines) => lines.map((line) => (line.startsWith('{"type":"usage","request":7,') ? line.replace('"inputTokens":8619', '"inputTokens":8000') : line)));
    expect(session.warnings.map((warning) => [warning.code, warning.line])).toEqual([
      ["records_disagree", 44],
      ["record_edited", 42],
    ]);
  });

  it("an edited message is named as an edit when resuming is refused, not blamed on the provider", async () => {
    const session = await loadEdited("v4-sealed", (lines) => lines.map((line) => line.replace("OpenAI co-founders, part 7", "OpenAI co-founders, part seven")));
    const edited = session.warnings.find((warning) => warning.code === "record_edited");
    expect(edited?.line).toBeGreaterThan(2);
    const last = rebuildRequest(session, session.requests.length - 1);
    expect(() => verifyRebuiltRequest(last, provider, {}, session)).toThrow(new RegExp(`session file .*edited\\.jsonl was edited after it was written \\(line ${edited!.line}`));
  });

  it("a v4 line written by something else (no checksum) is named", async () => {
    const session = await loadEdited("v4-sealed", (lines) => lines.map((line, index) => (index === 6 ? line.replace(/,"sum":"[0-9a-f]{16}"}$/, "}") : line)));
    expect(session.warnings).toEqual([expect.objectContaining({ code: "record_edited", line: 7, message: expect.stringContaining("has no checksum") })]);
  });
});

// A header edited from format 4 down to 3 turned every checksum off without a word: records of
// format 1–3 files carry none, so their `sum` keys were dropped unread.
describe("a format 4 file whose header says an older format", () => {
  const downgrade = (line: string) => line.replace('"version":4', '"version":3');

  it("is named as edited on line 1, and its records' checksums are still checked", async () => {
    const session = await loadEdited("v4-sealed", (lines) => lines.map((line, index) => (index === 0 ? downgrade(line) : line.replace("OpenAI co-founders, part 7", "OpenAI co-founders, part seven"))));
    expect(session.header.version).toBe(3);
    expect(session.warnings[0]).toEqual(expect.objectContaining({ code: "record_edited", line: 1, message: expect.stringMatching(/^Line 1 of .* says session format 3, but it carries a checksum, which ctxkit writes only from format 4 on: the header was edited/) }));
    const edited = session.warnings.filter((warning) => warning.code === "record_edited" && warning.line > 1);
    expect(edited.length).toBeGreaterThan(0);
    expect(edited.every((warning) => warning.message.includes("does not match its checksum"))).toBe(true);
    // The resume refusal names the edit, not the provider.
    const last = rebuildRequest(session, session.requests.length - 1);
    expect(() => verifyRebuiltRequest(last, provider, {}, session)).toThrow(/was edited after it was written \(lines 1, \d+: Line 1 .* says session format 3/);
  });

  it("is caught by line 2 when the header's own checksum was removed too", async () => {
    const session = await loadEdited("v4-sealed", (lines) => lines.map((line, index) => (index === 0 ? downgrade(line).replace(/,"sum":"[0-9a-f]{16}"}$/, "}") : line)));
    expect(session.warnings).toEqual([expect.objectContaining({ code: "record_edited", line: 1, message: expect.stringContaining("says session format 3, but line 2 carries a checksum") })]);
  });

  it("a true format 3 file (no checksums anywhere) still loads with no warning", async () => {
    const session = await loadEdited("v3-derived", (lines) => lines);
    expect(session.warnings).toEqual([]);
  });
});

describe("format version 4 fixture", () => {
  it("v4-sealed loads with no warning and every request rebuilds to its recorded body hash", async () => {
    const session = await createSessionStore({ directory: fileURLToPath(new URL("./fixtures/", import.meta.url)) }).load("v4-sealed");
    expect(session.header.version).toBe(4);
    expect(session.warnings).toEqual([]);
    for (const index of session.requests.keys()) expect(() => verifyRebuiltRequest(rebuildRequest(session, index), provider, {}, session)).not.toThrow();
    // No record keeps its checksum key once loaded.
    expect(JSON.stringify([session.header, session.prefixes, session.log, session.requests, session.usage, session.runs])).not.toContain('"sum"');
  });
});

describe("trailing blank lines", () => {
  it("are ignored on load and written over by the next append", async () => {
    const text = await fixture("v4-sealed");
    await writeFile(store.path("blank"), `${text}\n  \n\n`);
    const loaded = await store.load("blank");
    expect(loaded.warnings).toEqual([]);
    const writer = await store.open("blank");
    writer.appendRunStart({ runId: "again", input: "Once more.", at: "2026-12-01T09:00:00.000Z" });
    await writer.close();
    const reloaded = await store.load("blank");
    expect(reloaded.runs.map((run) => run.start.runId)).toEqual(["m_0", "again"]);
    expect(reloaded.warnings).toEqual([]);
  });
});
