import { describe, expect, it } from "vitest";
import { createCompressionPolicy, createMemoryBlobStore } from "./index.js";
import { applyEdits } from "../../context/compose-context-policies.js";
import { contextState, readingSession } from "../../context/compression/test-support/trajectory-builder.js";
import type { Message, ToolMessage } from "../../types/index.js";
import { ToolError } from "../../types/index.js";
import { createRecallTool } from "./recall-tool.js";
import { storingBlobs } from "./test-support/store-policy-blobs.js";

const context = { signal: new AbortController().signal, toolCallId: "call_r" };

async function compressedSession() {
  const blobStore = createMemoryBlobStore();
  // Stubs at an eighth of the result keep these synthetic files (an identifier on every line)
  // small enough for clearing alone to reach the target: the session has stubs, not a summary.
  const policy = storingBlobs(createCompressionPolicy("ctxkit", { contextWindow: 20_000, stubShare: 0.125, target: 0.7 }), blobStore);
  const original = readingSession(8, 80);
  const after = applyEdits(original, await policy.prepareContext(contextState(original)));
  const stub = after.find((message): message is ToolMessage => message.role === "tool" && message.meta.derived?.kind === "stub")!;
  const source = original.find((message) => message.meta.id === stub.meta.id.split("~")[0]) as ToolMessage;
  return { blobStore, original, stub, source };
}

describe("the recall tool", () => {
  it("returns the exact original bytes of a compressed result by blob id", async () => {
    const { blobStore, stub, source } = await compressedSession();
    const blobId = /blob_[0-9a-f]{16}/.exec(stub.content)![0];
    const tool = createRecallTool({ blobStore, maxChars: 100_000 });
    expect(await tool.execute({ blob: blobId }, context)).toBe(source.content);
  });

  it("returns the original by message id (the stub's id or the original's) through the session log", async () => {
    const { blobStore, stub, source, original } = await compressedSession();
    const log = new Map<string, Message>(original.map((message) => [message.meta.id, message]));
    const tool = createRecallTool({ blobStore, lookupMessage: (id: string) => log.get(id), maxChars: 100_000 });
    expect(await tool.execute({ message: stub.meta.id }, context)).toBe(source.content);
    expect(await tool.execute({ message: source.meta.id }, context)).toBe(source.content);
  });

  it("returns the whole original of a preview the status bar stamped with its time and call number", async () => {
    const blobStore = createMemoryBlobStore();
    const original = Array.from({ length: 4000 }, (_, index) => `log line ${index}: request handled in ${index % 97} ms`).join("\n");
    const policy = storingBlobs(createCompressionPolicy("ctxkit", { contextWindow: 20_000, toolResultBudgetTokens: 500 }), blobStore);
    const raw: ToolMessage = { role: "tool", toolCallId: "c1", toolName: "read_file", content: original, isError: false, meta: { id: "r1", origin: "tool", createdAt: "" } };
    const info = { call: { type: "tool_call" as const, id: "c1", name: "read_file", argumentsText: "{}", arguments: {} }, durationMs: 1, callNumber: 3, totalCallNumber: 3, now: new Date(0) };
    const preview = await policy.processToolResult(raw, info);
    expect(preview.content).not.toBe(original);
    const stamped: ToolMessage = { ...preview, content: `[2025-09-14 10:30:45] [Tool call #3 for 'read_file'] ${preview.content}` };
    const tool = createRecallTool({ blobStore, lookupMessage: (id: string) => (id === "r1" ? stamped : undefined), maxChars: 1_000_000 });
    expect(await tool.execute({ message: "r1" }, context)).toBe(original);
  });

  it("pages long content with a note on where to continue", async () => {
    const { blobStore, stub, source } = await compressedSession();
    const blobId = /blob_[0-9a-f]{16}/.exec(stub.content)![0];
    const tool = createRecallTool({ blobStore, maxChars: 1000 });
    const first = (await tool.execute({ blob: blobId }, context)) as string;
    expect(first.startsWith(source.content.slice(0, 1000))).toBe(true);
    expect(first).toContain(`[recall: characters 0–1000 of ${source.content.length} of ${blobId}. Call recall with offset=1000 for more.]`);
    const second = (await tool.execute({ blob: blobId, offset: 1000, limit: 500 }, context)) as string;
    expect(second.startsWith(source.content.slice(1000, 1500))).toBe(true);
  });

  it("finds compressed content by a BM25 search", async () => {
    const { blobStore, source } = await compressedSession();
    const tool = createRecallTool({ blobStore });
    const hits = (await tool.execute({ query: "handler_f2_41" }, context)) as string;
    expect(hits).toMatch(/^\d+ passages? match "handler_f2_41"/);
    expect(hits).toContain("handler_f2_41");
    expect(source.content).toContain("handler_f");
  });

  it("explains bad arguments and unknown ids to the model", async () => {
    const tool = createRecallTool({ blobStore: createMemoryBlobStore() });
    await expect(tool.execute({}, context)).rejects.toBeInstanceOf(ToolError);
    await expect(tool.execute({ blob: "blob_0000000000000000" }, context)).rejects.toThrow(/No blob 'blob_0000000000000000'/);
    await expect(tool.execute({ message: "m_1" }, context)).rejects.toThrow(/not available/);
    expect(await tool.execute({ query: "anything" }, context)).toBe('Nothing compressed matches "anything".');
  });
});
