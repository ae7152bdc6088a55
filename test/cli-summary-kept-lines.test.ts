import { readFile, writeFile, mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startOpenAIModelServer, type OpenAIModelServer } from "../src/testing.js";
import { findMarkers } from "../src/context/external-content/find-markers.js";
import { findExternalBlocks, textOutsideExternalBlocks } from "../src/context/external-content/wrap-external-content.js";
import { runCli } from "./run-cli.js";

let server: OpenAIModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

type Body = { messages: Array<{ role: string; content?: unknown }>; tools?: unknown[] };
type StoredRecord = { type: string; messages?: Array<{ role: string; content: unknown; meta: { derived?: { kind: string; keptLines?: string[] } } }> };
const files = 40;

describe("ctxkit run: archives, and a summary with fact lines kept beside it, through the session file", () => {
  // Without --trust-workspace the files are data: each result is tagged, and its kept lines keep the tags.
  it.each([["a trusted", ["--trust-workspace"]], ["an untrusted", []]])("compacts in %s workspace, stores the lines in the summary's metadata, and resumes onto the same bytes", async (_, trust) => {
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-kept-lines-"));
    for (let index = 0; index < files; index += 1) {
      const lines = Array.from({ length: 40 }, (_, line) => `${line}: value_${index}_${line} = compute_${index}(order_${line}.total)  # 温度 ✓`);
      await writeFile(join(cwd, `module-${index}.py`), `${lines.join("\n")}\n`);
    }
    const steps = { first: 0, resumed: 0 };
    server = await startOpenAIModelServer((body: Body) => {
      const text = JSON.stringify(body.messages);
      // A summary request (its own call without tools, or in-band: the conversation then the instruction) gets a short summary.
      if ((body.tools?.length ?? 0) === 0 || String(body.messages.at(-1)?.content ?? "").includes("the summary replaces it")) return { text: "## Goal\n- Read every module." };
      if (text.includes("Once more.")) return steps.resumed++ === 0 ? { toolCalls: [{ name: "read_file", arguments: { path: "module-0.py" } }] } : { text: "Still the same." };
      const step = steps.first++;
      return step < files ? { toolCalls: [{ name: "read_file", arguments: { path: `module-${step}.py` } }] } : { text: "Read them all." };
    });
    const base = ["--base-url", server.baseURL, "--model", "gpt-4.1", "--context-window", "8000", "--max-output-tokens", "256", "--yes", ...trust, "--json"];
    const first = await runCli(["run", ...base, "Read every module."], { cwd, timeoutMs: 120_000 });
    expect(first.code, first.stderr).toBe(0);
    const sessionId = (JSON.parse(first.stdout.trim().split("\n").at(-1)!) as { sessionId: string }).sessionId;
    const path = join(cwd, ".ctxkit", "sessions", `${sessionId}.jsonl`);
    const before = await readFile(path, "utf8");
    const inserted = before.trim().split("\n").map((line) => JSON.parse(line) as StoredRecord).flatMap((record) => (record.type === "context_edit" ? record.messages! : []));
    const summaries = inserted.filter((message) => message.meta.derived?.kind === "summary");
    // Archives (and condensed ones) quote the files' lines too: bare when trusted, inside their result's balanced tags when not.
    const archives = inserted.filter((message) => message.meta.derived?.kind === "archive").map((message) => String(message.content));
    expect(archives.length).toBeGreaterThan(0);
    expect(archives.some((content) => content.includes("= compute_"))).toBe(true);
    expect(archives.some((content) => textOutsideExternalBlocks(content).includes("= compute_"))).toBe(trust.length > 0);
    for (const content of archives) {
      expect(findMarkers(content).filter((marker) => marker.kind === "external").length).toBe(findExternalBlocks(content).length * 2);
    }
    expect(summaries.length).toBeGreaterThan(0);
    const keptLines = summaries.flatMap((summary) => summary.meta.derived!.keptLines ?? []);
    expect(keptLines.some((line) => line.includes("= compute_"))).toBe(true);
    expect(keptLines.some((line) => line.includes("<external_content"))).toBe(trust.length === 0);
    const requestsBefore = server.requests.length;

    const resumed = await runCli(["run", ...base, "--session", sessionId, "Once more."], { cwd, timeoutMs: 120_000 });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).not.toMatch(/warning|repair|disagree/i);
    // Nothing stored was rewritten, and the resumed context was sent as the stored one ended.
    expect((await readFile(path, "utf8")).startsWith(before)).toBe(true);
    // The first call after the restart starts with the last call's messages (its tail, the status message, aside).
    const previous = JSON.parse(server.requests[requestsBefore - 1]!.body) as Body;
    const firstResumed = JSON.parse(server.requests[requestsBefore]!.body) as Body;
    // The run ends near its trigger, and how near moves by a few tokens with the random parts of the
    // message ids: the resumed run's new request may cross it and compact before its first call. Then
    // a new summary replaces the stored one (and more), and only the stable prefix stays as it was.
    const summariesOf = (body: Body) => body.messages.map((message) => String(message.content)).filter((content) => content.startsWith("[COMPRESSED] Summary"));
    const compactedOnResume = summariesOf(firstResumed).some((summary) => !summariesOf(previous).includes(summary));
    if (compactedOnResume) expect(JSON.stringify(firstResumed.messages.slice(0, 2))).toBe(JSON.stringify(previous.messages.slice(0, 2)));
    else expect(JSON.stringify(firstResumed.messages.slice(0, previous.messages.length - 1))).toBe(JSON.stringify(previous.messages.slice(0, -1)));
    // Each summary it sends is a stored one, sent with the lines stored beside it. Whether the newest
    // has kept lines depends on the room its compaction had under the trigger, which the ids move too.
    const stored = (await readFile(path, "utf8")).trim().split("\n").map((line) => JSON.parse(line) as StoredRecord);
    const storedSummaries = stored.flatMap((record) => (record.type === "context_edit" ? record.messages! : [])).filter((message) => message.meta.derived?.kind === "summary");
    const sent = summariesOf(firstResumed);
    expect(sent.length).toBeGreaterThan(0);
    for (const summary of sent) {
      const record = storedSummaries.find((message) => String(message.content) === summary);
      expect(record, summary.slice(0, 200)).toBeDefined();
      const lines = record!.meta.derived!.keptLines ?? [];
      if (lines.length > 0) expect(summary).toContain(`## Lines kept verbatim from the replaced turns\n${lines.join("\n")}`);
    }
  });
});
