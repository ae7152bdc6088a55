import { copyFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { textOf, thinkingOf, toolCallsOf, type AssistantMessage } from "../types/index.js";
import { findStatusCheckpoint } from "../context/status-bar/status-checkpoint.js";
import { createOpenAICompatible } from "../providers/openai-compatible/index.js";
import { rebuildRequest, verifyRebuiltRequest } from "./rebuild-request.js";
import { createSessionStore } from "./session-store.js";
import { createTempDirectory } from "./test-support/session-test-data.js";

/**
 * Sessions written by every past format version must load forever. When the format changes, add
 * fixtures for the new version and keep these tests passing unchanged.
 */
const fixtures = createSessionStore({ directory: fileURLToPath(new URL("./fixtures/", import.meta.url)) });

describe("format version 1 fixtures", () => {
  it("v1-basic loads with every record", async () => {
    const session = await fixtures.load("v1-basic");
    expect(session.header).toEqual({
      type: "header",
      format: "ctxkit-session",
      version: 1,
      id: "20261130-041502-a1b2c3",
      createdAt: "2026-11-30T04:15:02.118Z",
      workspace: "/home/dev/projects/weather-cli",
    });
    expect(session.prefixes).toHaveLength(1);
    expect(session.prefix.tools.map((tool) => tool.name)).toEqual(["read_file", "run_command"]);
    expect(session.messages.map((message) => message.role)).toEqual(["user", "assistant", "tool", "assistant"]);
    expect(session.requests.map((request) => request.messageCount)).toEqual([1, 3]);
    expect(session.usage.map((record) => record.usage.inputTokens)).toEqual([1204, 1530]);
    expect(session.runs).toHaveLength(1);
    expect(session.runs[0]?.end).toMatchObject({ stopReason: "final_answer", iterations: 2 });
    expect(session.warnings).toEqual([]);

    const assistant = session.messages[1] as AssistantMessage;
    expect(thinkingOf(assistant)[0]?.signature).toBe("EqoBCkgIBxABGAIiQJ3v0Zk1c2lnbmF0dXJlLWJ5dGVzLWtlcHQtdmVyYmF0aW0rL0E9PQ==");
    expect(toolCallsOf(assistant)[0]?.argumentsText).toBe('{"path": "src/api.ts"}');
    expect(textOf(session.messages[3] as AssistantMessage)).toContain("&units=metric");

    const second = rebuildRequest(session, 1);
    expect(second.messages).toHaveLength(3);
    expect(second.tail?.content).toBe("[status] call 2 · 2026-11-30 04:15 UTC · context 1,530 / 200,000 tokens");
  });

  it("v1-torn loads its five intact records and reports the torn sixth line", async () => {
    const session = await fixtures.load("v1-torn");
    expect(session.messages).toHaveLength(1);
    expect(session.requests).toHaveLength(1);
    expect(session.runs[0]?.end).toBeUndefined();
    expect(session.warnings).toEqual([expect.objectContaining({ code: "torn_last_line", line: 6, bytes: 158 })]);
  });

  it("lists every fixture without errors", async () => {
    const summaries = await fixtures.list();
    expect(summaries.map((summary) => [summary.id, summary.error])).toEqual([
      ["v1-basic", undefined],
      ["v1-torn", undefined],
      ["v2-context-edit", undefined],
      ["v3-derived", undefined],
      ["v3-sub-agents", undefined],
      ["v4-sealed", undefined],
    ]);
  });

  describe("reopening a copy of v1-torn", () => {
    let temp: Awaited<ReturnType<typeof createTempDirectory>>;
    beforeEach(async () => {
      temp = await createTempDirectory();
    });
    afterEach(() => temp.remove());

    it("drops only the torn tail and resumes appending", async () => {
      const store = createSessionStore({ directory: temp.directory });
      await copyFile(fixtures.path("v1-torn"), store.path("v1-torn"));
      const writer = await store.open("v1-torn");
      expect(writer.warnings[0]?.code).toBe("torn_last_line");
      await writer.close();
      const session = await store.load("v1-torn");
      expect([session.messages.length, session.requests.length, session.warnings]).toEqual([1, 1, []]);
    });
  });
});

describe("format version 2 fixtures", () => {
  it("v2-context-edit loads the edited context, keeps the replaced original in the log, and rebuilds each request", async () => {
    const session = await fixtures.load("v2-context-edit");
    expect(session.header.version).toBe(2);
    expect(session.edits).toHaveLength(1);
    expect(session.log.map((message) => message.meta.id)).toEqual(["msg-0001", "msg-0002", "msg-0003", "msg-0004"]);
    expect(session.messages.map((message) => message.meta.id)).toEqual(["msg-0001", "msg-0002", "msg-0003:cleared", "msg-0004"]);
    // Request 1 was sent before the edit, request 2 after it: each rebuilds from its own view.
    expect(rebuildRequest(session, 1).messages[2]?.meta.id).toBe("msg-0003");
    expect(rebuildRequest(session, 2).messages[2]?.meta.id).toBe("msg-0003:cleared");
    expect(rebuildRequest(session, 2).messages).toHaveLength(3);
  });

  it("refuses a context edit inside a version 1 file", async () => {
    const { directory } = await createTempDirectory();
    const store = createSessionStore({ directory });
    const text = (await import("node:fs/promises")).readFile(fileURLToPath(new URL("./fixtures/v2-context-edit.jsonl", import.meta.url)), "utf8");
    await (await import("node:fs/promises")).writeFile(store.path("old"), (await text).replace('"version":2', '"version":1'));
    await expect(store.load("old")).rejects.toMatchObject({ code: "session_corrupt", message: expect.stringContaining("context_edit record in a version 1 file") });
  });
});

describe("context edits written by the store", () => {
  it("round-trips an edit and keeps counting the context after it", async () => {
    const { directory } = await createTempDirectory();
    const store = createSessionStore({ directory });
    const session = await fixtures.load("v2-context-edit");
    const writer = await store.create({ id: "edits", createdAt: "2026-11-30T05:00:00.000Z", prefix: { ...session.prefix } });
    for (const message of session.log.slice(0, 3)) writer.appendMessage(message);
    const [edit] = session.edits;
    writer.appendContextEdit({ start: edit!.start, end: edit!.end, messages: edit!.messages, reason: edit!.reason, at: edit!.at });
    expect(writer.messageCount).toBe(3);
    expect(() => writer.appendContextEdit({ start: 2, end: 9, messages: [], reason: "x", at: "" })).toThrow(/context has 3/);
    await writer.close();
    const loaded = await store.load("edits");
    expect(loaded.messages).toEqual(session.messages.slice(0, 3));
    expect(loaded.log).toEqual(session.log.slice(0, 3));
  });
});

describe("format version 3 fixtures", () => {
  it("v3-derived loads with the harness's metadata and every request rebuilds to the body hash recorded when it was sent", async () => {
    const session = await fixtures.load("v3-derived");
    expect(session.header.version).toBe(3);
    const everything = [...session.log, ...session.edits.flatMap((edit) => edit.messages)];
    const kinds = everything.flatMap((message) => (message.meta.derived ? [message.meta.derived.kind] : []));
    expect(new Set(kinds)).toEqual(new Set(["status", "stub", "checkpoint", "archive", "summary"]));
    expect(session.edits.length).toBeGreaterThan(0);
    // Recorded from a scripted model behind vLLM's wire format (createOpenAICompatible({ vendor: "vllm" })).
    const provider = createOpenAICompatible({ vendor: "vllm", model: "Qwen/Qwen3-8B", baseURL: "http://127.0.0.1:9/v1" });
    expect(session.requests.length).toBeGreaterThan(3);
    for (const index of session.requests.keys()) {
      const rebuilt = rebuildRequest(session, index);
      expect(rebuilt.bodyHash).toMatch(/^sha256:/);
      expect(() => verifyRebuiltRequest(rebuilt, provider)).not.toThrow();
    }
    expect(findStatusCheckpoint(session.messages)?.data.toolCalls.fetch).toBeGreaterThan(0);
  });
});
