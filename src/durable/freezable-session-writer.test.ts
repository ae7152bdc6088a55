import { readFile } from "node:fs/promises";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createSessionStore } from "../session/session-store.js";
import { createTempDirectory, samplePrefix, userMessage } from "../session/test-support/session-test-data.js";
import { freezableSessionWriter } from "./freezable-session-writer.js";

let temp: Awaited<ReturnType<typeof createTempDirectory>>;
beforeEach(async () => {
  temp = await createTempDirectory();
});
afterEach(() => temp.remove());

describe("a cancelled run's session writer", () => {
  it("keeps every record appended before the cancel, buffered ones too, and takes none after it: the session ends as a crash would leave it", async () => {
    const store = createSessionStore({ directory: temp.directory });
    let cancelled = false;
    const writer = freezableSessionWriter(await store.create({ id: "run", createdAt: "2026-12-03T10:00:00.000Z", prefix: samplePrefix }), () => cancelled);
    writer.appendMessage(userMessage("u0", "before the cancel"));
    const request = writer.appendRequest({ messageCount: 1, tail: null, provider: "anthropic", model: "claude-sonnet-4-5", at: "2026-12-03T10:00:01.000Z" });
    cancelled = true;
    // What the cancelled loop goes on to record: the call's usage, an aborted answer, the run's end.
    writer.appendUsage(request, { inputTokens: 10, cachedInputTokens: 0, cacheWriteTokens: 0, outputTokens: 1, reasoningTokens: 0 });
    writer.appendMessage(userMessage("u1", "after the cancel"));
    expect(writer.appendRequest({ messageCount: 2, tail: null, provider: "anthropic", model: "claude-sonnet-4-5", at: "2026-12-03T10:00:02.000Z" })).toBe(request + 1);
    writer.appendRunEnd({ runId: "run-1", stopReason: "aborted", usage: { inputTokens: 0, cachedInputTokens: 0, cacheWriteTokens: 0, outputTokens: 0, reasoningTokens: 0 }, iterations: 1, at: "2026-12-03T10:00:03.000Z" });
    await writer.close();
    const lines = (await readFile(store.path("run"), "utf8")).split("\n").slice(0, -1);
    expect(lines.map((line) => (JSON.parse(line) as { type: string }).type)).toEqual(["header", "prefix", "message", "request"]);
    expect(lines.join("\n")).toContain("before the cancel");
    expect(lines.join("\n")).not.toContain("after the cancel");
  });
});
