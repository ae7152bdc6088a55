import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Message } from "../types/index.js";
import { createSessionStore, type JsonlSessionStore } from "./session-store.js";
import {
  assistantWithToolCall,
  createTempDirectory,
  samplePrefix,
  toolResult,
  usageOf,
  userMessage,
} from "./test-support/session-test-data.js";

let temp: Awaited<ReturnType<typeof createTempDirectory>>;
let store: JsonlSessionStore;

beforeEach(async () => {
  temp = await createTempDirectory();
  store = createSessionStore({ directory: join(temp.directory, "sessions") });
});
afterEach(() => temp.remove());

const createdAt = "2026-11-30T04:15:02.118Z";

describe("session store", () => {
  it("round-trips messages byte-exact: signatures, redacted thinking and raw tool-call arguments", async () => {
    const writer = await store.create({ createdAt, workspace: "/tmp/project", prefix: samplePrefix });
    const messages: Message[] = [
      userMessage("m1", "Why Kelvin? 温度 🌡️ \u2028 \"quoted\""),
      assistantWithToolCall("m2", "call-1", '{"path":  "src/api.ts" , "limit": 1.50}'),
      toolResult("m3", "call-1", "line 1\nline 2\t\\n"),
      assistantWithToolCall("m4", "call-2", '{"path": "src/a'), // invalid JSON, kept verbatim
    ];
    writer.appendRunStart({ runId: "run-1", input: "Why Kelvin?", at: createdAt });
    writer.appendMessage(messages[0]!);
    writer.appendRequest({ messageCount: 1, tail: null, provider: "anthropic", model: "claude-sonnet-4-5", at: createdAt });
    writer.appendUsage(0, usageOf(100, 20));
    for (const message of messages.slice(1)) writer.appendMessage(message);
    // Aborted while call-2 ran: the records agree with each other (no cross-check warning).
    writer.appendRunEnd({ runId: "run-1", stopReason: "aborted", usage: usageOf(100, 20), iterations: 1, at: createdAt });
    await writer.flush();

    const loaded = await store.load(writer.id);
    expect(loaded.messages).toEqual(messages);
    expect(loaded.messages.map((message) => JSON.stringify(message))).toEqual(messages.map((message) => JSON.stringify(message)));
    expect(loaded.header).toMatchObject({ format: "ctxkit-session", version: 4, id: writer.id, createdAt, workspace: "/tmp/project" });
    expect(loaded.prefix).toEqual({ type: "prefix", ...samplePrefix });
    expect(loaded.usage).toEqual([{ type: "usage", request: 0, usage: usageOf(100, 20) }]);
    expect(loaded.runs).toHaveLength(1);
    expect(loaded.runs[0]?.end?.stopReason).toBe("aborted");
    expect(loaded.warnings).toEqual([]);
    await writer.close();
  });

  it("writes the header and prefix durably on create, before anything is appended", async () => {
    const writer = await store.create({ id: "first", createdAt, prefix: samplePrefix });
    const lines = (await readFile(store.path("first"), "utf8")).split("\n");
    expect(lines).toHaveLength(3);
    expect(JSON.parse(lines[0] ?? "")).toEqual({ type: "header", format: "ctxkit-session", version: 4, id: "first", createdAt, sum: expect.stringMatching(/^[0-9a-f]{16}$/) });
    expect(lines[2]).toBe("");
    await writer.close();
  });

  it("creates sortable unique ids from the creation time", async () => {
    const first = await store.create({ createdAt, prefix: samplePrefix });
    const second = await store.create({ createdAt, prefix: samplePrefix });
    expect(first.id).toMatch(/^20261130-041502-[0-9a-f]{6}$/);
    expect(second.id).not.toBe(first.id);
    await Promise.all([first.close(), second.close()]);
  });

  it("refuses to create a session whose id exists, leaving the existing file untouched", async () => {
    const writer = await store.create({ id: "taken", createdAt, prefix: samplePrefix });
    writer.appendMessage(userMessage("m1", "hello"));
    await writer.close();
    const before = await readFile(store.path("taken"));
    await expect(store.create({ id: "taken", createdAt, prefix: samplePrefix })).rejects.toMatchObject({
      code: "session_exists",
      message: expect.stringContaining("already exists"),
    });
    expect(await readFile(store.path("taken"))).toEqual(before);
  });

  it("rejects ids that could escape the session directory", async () => {
    expect(() => store.path("../escape")).toThrow(/Invalid session id/);
    await expect(store.load("a/b")).rejects.toMatchObject({ code: "session_id_invalid" });
  });

  it("reports a missing session with the path it looked at", async () => {
    await expect(store.load("nope")).rejects.toMatchObject({
      code: "session_not_found",
      message: expect.stringContaining(store.path("nope")),
    });
  });

  it("reopens a session and keeps appending after the loaded records", async () => {
    const writer = await store.create({ id: "resume", createdAt, prefix: samplePrefix });
    writer.appendRunStart({ runId: "run-1", input: "first", at: createdAt });
    writer.appendMessage(userMessage("m1", "first"));
    writer.appendRequest({ messageCount: 1, provider: "anthropic", model: "claude-sonnet-4-5", at: createdAt });
    await writer.close();

    const reopened = await store.open("resume");
    expect(reopened.loaded?.messages).toHaveLength(1);
    expect(reopened.messageCount).toBe(1);
    expect(reopened.requestCount).toBe(1);
    reopened.appendMessage(userMessage("m2", "second"));
    expect(reopened.appendRequest({ messageCount: 2, provider: "anthropic", model: "claude-sonnet-4-5", at: createdAt })).toBe(1);
    // The run that was open when the first writer stopped can still be ended.
    reopened.appendRunEnd({ runId: "run-1", stopReason: "aborted", usage: usageOf(0, 0), iterations: 1, at: createdAt });
    await reopened.close();

    const loaded = await store.load("resume");
    expect(loaded.messages.map((message) => message.meta.id)).toEqual(["m1", "m2"]);
    expect(loaded.requests.map((request) => request.messageCount)).toEqual([1, 2]);
    expect(loaded.runs[0]?.end?.stopReason).toBe("aborted");
  });

  it("lists sessions with counts and a preview, and a corrupt file with an error instead of throwing", async () => {
    const writer = await store.create({ id: "20261130-041502-aaaaaa", createdAt, prefix: samplePrefix });
    writer.appendRunStart({ runId: "run-1", input: "Why does   `weather today`\nprint Kelvin?", at: createdAt });
    writer.appendMessage(userMessage("m1", "Why does `weather today` print Kelvin?"));
    writer.appendRequest({ messageCount: 1, provider: "anthropic", model: "claude-sonnet-4-5", at: createdAt });
    await writer.close();
    await writeFile(join(store.directory, "20261130-050000-bbbbbb.jsonl"), '{"type":"header"\nnot json\n');
    await writeFile(join(store.directory, "notes.txt"), "ignored");

    const summaries = await store.list();
    expect(summaries.map((summary) => summary.id)).toEqual(["20261130-041502-aaaaaa", "20261130-050000-bbbbbb"]);
    expect(summaries[0]).toMatchObject({
      createdAt,
      messageCount: 1,
      requestCount: 1,
      provider: "anthropic",
      model: "claude-sonnet-4-5",
      preview: "Why does `weather today` print Kelvin?",
    });
    expect(summaries[0]?.updatedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(summaries[1]?.error).toMatchObject({ code: "session_corrupt", message: expect.stringContaining("line 1") });
  });

  it("lists nothing when the directory does not exist yet", async () => {
    expect(await store.list()).toEqual([]);
  });

  it("refuses a relative workspace path before creating any file", async () => {
    await expect(store.create({ id: "rel", createdAt, workspace: "project", prefix: samplePrefix })).rejects.toMatchObject({
      code: "option_invalid",
    });
    expect(await store.list()).toEqual([]);
  });
});
