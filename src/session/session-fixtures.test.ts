import { copyFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { textOf, thinkingOf, toolCallsOf, type AssistantMessage } from "../types/index.js";
import { rebuildRequest } from "./rebuild-request.js";
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

  it("lists both fixtures without errors", async () => {
    const summaries = await fixtures.list();
    expect(summaries.map((summary) => [summary.id, summary.error])).toEqual([
      ["v1-basic", undefined],
      ["v1-torn", undefined],
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
