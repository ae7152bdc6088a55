import { readdir, readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Message } from "../types/index.js";
import { createSummaryMessage } from "../context/compression/full-compaction.js";
import { sealRecord } from "./record-checksum.js";
import { createSessionStore } from "./session-store.js";
import { collectSubAgentLinks } from "./sub-agent-links.js";
import { buildUsageLedger, toLedgerCall } from "./usage-ledger.js";
import { storeHarnesses, type StoreUnderTest } from "./test-support/store-harnesses.js";
import { assistantWithToolCall, samplePrefix, startSampleSession, toolResult, usageOf, userMessage } from "./test-support/session-test-data.js";

// One contract, every store (Hono's router suite): what a session store promises is tested once and
// run against the JSONL files and PostgreSQL alike. A store that cannot have a behaviour says why.
const createdAt = "2026-11-30T04:15:02.118Z";
const fixtureDirectory = fileURLToPath(new URL("./fixtures/", import.meta.url));
const fixtures = createSessionStore({ directory: fixtureDirectory });
const fixtureIds = (await readdir(fixtureDirectory)).filter((name) => name.endsWith(".jsonl")).map((name) => name.slice(0, -".jsonl".length)).sort();
const usageLine = (request: number) => JSON.stringify(sealRecord({ type: "usage", request, usage: usageOf(1, 1) }));

for (const harness of storeHarnesses) {
  describe.skipIf(harness.skip !== undefined)(`session store contract: ${harness.name}${harness.skip ? ` (skipped: ${harness.skip})` : ""}`, () => {
    let under: StoreUnderTest;
    beforeEach(async () => {
      under = await harness.open();
    });
    afterEach(() => under.dispose());

    /** Header, prefix and three user messages; returns the stored lines. */
    async function writeSession(id: string): Promise<string[]> {
      const writer = await under.store.create({ id, createdAt, prefix: samplePrefix });
      for (let index = 0; index < 3; index += 1) writer.appendMessage(userMessage(`m${index}`, `message ${index}`));
      await writer.close();
      return under.rawLines(id);
    }

    it("round-trips messages byte-exact: signatures, redacted thinking and raw tool-call arguments", async () => {
      const { store } = under;
      const writer = await store.create({ createdAt, workspace: "/tmp/project", prefix: samplePrefix });
      const messages: Message[] = [
        userMessage("m1", "Why Kelvin? 温度 🌡️ \u2028 \"quoted\" \u0000 nul"),
        assistantWithToolCall("m2", "call-1", '{"path":  "src/api.ts" , "limit": 1.50}'),
        toolResult("m3", "call-1", "line 1\nline 2\t\\n"),
        assistantWithToolCall("m4", "call-2", '{"path": "src/a'),
      ];
      writer.appendRunStart({ runId: "run-1", input: "Why Kelvin?", at: createdAt });
      writer.appendMessage(messages[0]!);
      writer.appendRequest({ messageCount: 1, tail: null, provider: "anthropic", model: "claude-sonnet-4-5", at: createdAt });
      writer.appendUsage(0, usageOf(100, 20));
      for (const message of messages.slice(1)) writer.appendMessage(message);
      writer.appendRunEnd({ runId: "run-1", stopReason: "aborted", usage: usageOf(100, 20), iterations: 1, at: createdAt });
      await writer.flush();

      const loaded = await store.load(writer.id);
      expect(loaded.messages.map((message) => JSON.stringify(message))).toEqual(messages.map((message) => JSON.stringify(message)));
      expect(loaded.header).toMatchObject({ format: "ctxkit-session", version: 4, id: writer.id, createdAt, workspace: "/tmp/project" });
      expect(loaded.prefix).toEqual({ type: "prefix", ...samplePrefix });
      expect(loaded.usage).toEqual([{ type: "usage", request: 0, usage: usageOf(100, 20) }]);
      expect(loaded.runs[0]?.end?.stopReason).toBe("aborted");
      expect(loaded.warnings).toEqual([]);
      await writer.close();
    });

    it("stores the header and prefix durably on create, before anything is appended", async () => {
      const writer = await under.store.create({ id: "first", createdAt, prefix: samplePrefix });
      const lines = await under.rawLines("first");
      expect(lines).toHaveLength(2);
      expect(JSON.parse(lines[0] ?? "")).toEqual({ type: "header", format: "ctxkit-session", version: 4, id: "first", createdAt, sum: expect.stringMatching(/^[0-9a-f]{16}$/) });
      await writer.close();
    });

    it("creates sortable unique ids from the creation time", async () => {
      const first = await under.store.create({ createdAt, prefix: samplePrefix });
      const second = await under.store.create({ createdAt, prefix: samplePrefix });
      expect(first.id).toMatch(/^20261130-041502-[0-9a-f]{6}$/);
      expect(second.id).not.toBe(first.id);
      await Promise.all([first.close(), second.close()]);
    });

    it("refuses to create a session whose id exists, leaving the stored one untouched", async () => {
      const before = await writeSession("taken");
      await expect(under.store.create({ id: "taken", createdAt, prefix: samplePrefix })).rejects.toMatchObject({ code: "session_exists", message: expect.stringContaining("already exists") });
      expect(await under.rawLines("taken")).toEqual(before);
    });

    it("rejects ids that could escape the store, and names where it looked for a missing one", async () => {
      expect(() => under.store.path("../escape")).toThrow(/Invalid session id/);
      await expect(under.store.load("a/b")).rejects.toMatchObject({ code: "session_id_invalid" });
      await expect(under.store.load("nope")).rejects.toMatchObject({ code: "session_not_found", message: expect.stringContaining("nope") });
    });

    it("reopens a session and keeps appending after the loaded records; resume is byte-identical", async () => {
      const { store } = under;
      const writer = await store.create({ id: "resume", createdAt, prefix: samplePrefix });
      writer.appendRunStart({ runId: "run-1", input: "first", at: createdAt });
      writer.appendMessage(userMessage("m1", "first"));
      writer.appendRequest({ messageCount: 1, provider: "anthropic", model: "claude-sonnet-4-5", at: createdAt });
      await writer.close();
      const storedBefore = await under.rawLines("resume");

      const started = await startSampleSession(store, "resume");
      expect(started.resumed).toBe(true);
      expect(started.messages.map((message) => JSON.stringify(message))).toEqual([JSON.stringify(userMessage("m1", "first"))]);
      started.session.appendMessage(userMessage("m2", "second"));
      expect(started.session.appendRequest({ messageCount: 2, provider: "anthropic", model: "claude-sonnet-4-5", at: createdAt })).toBe(1);
      started.session.appendRunEnd({ runId: "run-1", stopReason: "aborted", usage: usageOf(0, 0), iterations: 1, at: createdAt });
      await started.session.close();

      expect((await under.rawLines("resume")).slice(0, storedBefore.length)).toEqual(storedBefore);
      const loaded = await store.load("resume");
      expect(loaded.messages.map((message) => message.meta.id)).toEqual(["m1", "m2"]);
      expect(loaded.requests.map((request) => request.messageCount)).toEqual([1, 2]);
      expect(loaded.runs[0]?.end?.stopReason).toBe("aborted");
    });

    it("round-trips a compaction summary with the fact lines kept beside it: loads without warnings, resumes byte-identical", async () => {
      // Issue 28 added `derived.keptLines` to summaries; the next compaction reads the lines from it,
      // and reads as tags only those with the nonces recorded beside them (`derived.tagNonces`).
      const { store } = under;
      const writer = await store.create({ id: "kept-lines", createdAt, prefix: samplePrefix });
      const call = assistantWithToolCall("m2", "call-1", '{"path":"src/payment.py"}');
      const result = toolResult("m3", "call-1", "12: def retry_payment(order_id):\n温度 🌡️ \u2028 line");
      const range = { start: 1, end: 3, sources: [{ label: "m2", kind: "assistant" as const, text: "read_file", messageId: "m2" }] };
      const keptLines = [`- m2: read_file {"path":"src/payment.py"} → ok`, "  12: def retry_payment(order_id):", "  温度 🌡️ \u2028 line"];
      const summary = createSummaryMessage(range, "## Goal\n- Fix the retry.", "m2", "m3", 1, new Date(createdAt), [{ source: "web_fetch", trust: "external" }], keptLines, ["xm3"]);
      writer.appendRunStart({ runId: "run-1", input: "Fix it", at: createdAt });
      for (const message of [userMessage("m1", "Fix it"), call, result]) writer.appendMessage(message);
      writer.appendRequest({ messageCount: 3, provider: "anthropic", model: "claude-sonnet-4-5", at: createdAt });
      writer.appendContextEdit({ start: 1, end: 3, messages: [summary], reason: "compaction", at: createdAt });
      writer.appendRequest({ messageCount: 2, provider: "anthropic", model: "claude-sonnet-4-5", at: createdAt });
      await writer.close();
      const storedBefore = await under.rawLines("kept-lines");

      const loaded = await store.load("kept-lines");
      expect(loaded.warnings).toEqual([]);
      const expected = [userMessage("m1", "Fix it"), summary].map((message) => JSON.stringify(message));
      expect(loaded.messages.map((message) => JSON.stringify(message))).toEqual(expected);
      expect(loaded.messages[1]!.meta.derived).toEqual({ kind: "summary", replaces: ["m2"], batch: 1, keptLines, tagNonces: ["xm3"] });

      const started = await startSampleSession(store, "kept-lines");
      expect(started.resumed).toBe(true);
      expect(started.messages.map((message) => JSON.stringify(message))).toEqual(expected);
      await started.session.close();
      // Resuming appends (the sample's canonical prefix) and never rewrites a stored record.
      expect((await under.rawLines("kept-lines")).slice(0, storedBefore.length)).toEqual(storedBefore);
    });

    it("lists sessions with counts and a preview, and a corrupt one with an error instead of throwing", async () => {
      const writer = await under.store.create({ id: "20261130-041502-aaaaaa", createdAt, prefix: samplePrefix });
      writer.appendRunStart({ runId: "run-1", input: "Why does   `weather today`\nprint Kelvin?", at: createdAt });
      writer.appendMessage(userMessage("m1", "Why does `weather today` print Kelvin?"));
      writer.appendRequest({ messageCount: 1, provider: "anthropic", model: "claude-sonnet-4-5", at: createdAt });
      await writer.close();
      await under.writeRaw("20261130-050000-bbbbbb", '{"type":"header"\nnot json\n');

      const summaries = await under.store.list();
      expect(summaries.map((summary) => summary.id)).toEqual(["20261130-041502-aaaaaa", "20261130-050000-bbbbbb"]);
      expect(summaries[0]).toMatchObject({ createdAt, messageCount: 1, requestCount: 1, provider: "anthropic", model: "claude-sonnet-4-5", preview: "Why does `weather today` print Kelvin?" });
      expect(summaries[0]?.updatedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
      expect(summaries[1]?.error).toMatchObject({ code: "session_corrupt", message: expect.stringContaining("line 1") });
    });

    it("lists nothing when it holds nothing, and refuses a relative workspace before storing anything", async () => {
      expect(await under.store.list()).toEqual([]);
      await expect(under.store.create({ id: "rel", createdAt, workspace: "project", prefix: samplePrefix })).rejects.toMatchObject({ code: "option_invalid" });
      expect(await under.store.list()).toEqual([]);
    });

    it.for(fixtureIds)("loads the %s fixture exactly as the JSONL loader does: messages, sub-agent links, usage ledger", async (id, { skip }) => {
      // A torn last line is what a crash mid-write leaves in a file; a store without files has none to load.
      if (id.includes("torn") && harness.lacks.tornTail !== undefined) skip(harness.lacks.tornTail);
      const text = await readFile(`${fixtureDirectory}${id}.jsonl`, "utf8");
      await under.writeRaw(id, text);
      const expected = await fixtures.load(id);
      const loaded = await under.store.load(id);
      const { path: _expectedPath, warnings: expectedWarnings, ...expectedRest } = expected;
      const { path: _loadedPath, warnings, ...rest } = loaded;
      expect(rest).toEqual(expectedRest);
      expect(warnings.map((warning) => warning.code)).toEqual(expectedWarnings.map((warning) => warning.code));
      expect(collectSubAgentLinks(loaded.log)).toEqual(collectSubAgentLinks(expected.log));
      const ledger = (session: typeof loaded) => buildUsageLedger(session.usage.map((record) => toLedgerCall(record.usage)));
      expect(ledger(loaded)).toEqual(ledger(expected));
    });

    it("refuses to resume a damaged session without consent, and with it repairs it, keeping the original", async () => {
      const lines = await writeSession("resume");
      const intact = [...lines];
      lines.splice(4, 0, lines[3]!);
      const damaged = `${[...lines, usageLine(7)].join("\n")}\n`;
      await under.writeRaw("resume", damaged);
      await expect(startSampleSession(under.store, "resume")).rejects.toMatchObject({ code: "session_needs_repair", message: expect.stringContaining("--repair") });
      expect(`${(await under.rawLines("resume")).join("\n")}\n`).toBe(damaged);

      const started = await startSampleSession(under.store, "resume", true);
      expect(started.messages.map((message) => message.meta.id)).toEqual(["m0", "m1", "m2"]);
      expect(started.warnings).toEqual([expect.objectContaining({ code: "session_repaired", removedLines: [5, 7] })]);
      await started.session.close();
      expect(await under.backupText("resume", 0)).toBe(damaged);
      expect((await under.rawLines("resume")).slice(0, intact.length)).toEqual(intact);
      expect((await under.store.load("resume")).warnings).toEqual([]);
    });

    it("puts records written out of order back in order on a consented repair", async () => {
      const lines = await writeSession("order");
      const writer = await under.store.open("order");
      writer.appendRequest({ messageCount: 3, provider: "anthropic", model: "claude-sonnet-4-5", at: createdAt });
      writer.appendUsage(0, usageOf(10, 1));
      await writer.close();
      const all = await under.rawLines("order");
      // The usage line before its request: loads with an orphan warning, and a repair moves it back.
      await under.writeRaw("order", `${[...lines, all.at(-1)!, all.at(-2)!].join("\n")}\n`);
      const started = await startSampleSession(under.store, "order", true);
      await started.session.close();
      expect(started.warnings[0]).toMatchObject({ code: "session_repaired", movedLines: expect.any(Array) });
      expect((await under.store.load("order")).usage).toHaveLength(1);
    });

    it("removes a session, and reports a missing one", async () => {
      await writeSession("gone");
      await under.store.remove("gone");
      await expect(under.store.load("gone")).rejects.toMatchObject({ code: "session_not_found" });
      await expect(under.store.remove("gone")).rejects.toMatchObject({ code: "session_not_found" });
    });
  });
}
