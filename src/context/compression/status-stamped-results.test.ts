import { describe, expect, it } from "vitest";
import type { Message, ToolMessage } from "../../types/index.js";
import { annotateToolResult } from "../status-bar/annotate-tool-result.js";
import { createMemoryBlobStore } from "./blob-store.js";
import { planToolResultClearing } from "./clear-old-tool-results.js";
import { createToolResultPreview } from "./tool-result-preview.js";
import { compressedHeader, isCompressedText } from "./markers.js";

describe("compression markers behind the status bar's stamps", () => {
  it("points the stub of a preview the status bar stamped at the blob of the whole result", () => {
    const blobs = createMemoryBlobStore();
    const whole = Array.from({ length: 400 }, (_, line) => `line ${line}: value ${line * 7}`).join("\n");
    const wholeId = blobs.put(whole);
    const preview = createToolResultPreview({ content: whole, tokens: 4000, blobId: wholeId, toolName: "read_file", previewChars: 1200 });
    const raw: ToolMessage = { role: "tool", toolCallId: "c1", toolName: "read_file", content: preview, isError: false, meta: { id: "r1", origin: "tool", createdAt: "" } };
    // Compression's processor runs first, then the status bar stamps the time and call number in front.
    const stamped = annotateToolResult(raw, { call: { type: "tool_call", id: "c1", name: "read_file", argumentsText: "{}", arguments: {} }, durationMs: 1, callNumber: 1, totalCallNumber: 1, now: new Date(0) }, { timestamps: true, counters: true, timeZone: "UTC" });
    const messages: Message[] = [
      { role: "user", content: "read it", meta: { id: "u", origin: "user", createdAt: "" } },
      { role: "assistant", content: [{ type: "tool_call", id: "c1", name: "read_file", argumentsText: "{}", arguments: {} }], meta: { id: "a", origin: "model", createdAt: "" } },
      stamped,
    ];
    const plan = planToolResultClearing(messages, { keepRecentToolTokens: 0, countMessage: (message) => JSON.stringify(message).length / 4, blobStore: blobs, batch: 1, now: new Date(0) });
    expect(plan.cleared).toBe(1);
    expect((plan.messages[2] as ToolMessage).content).toContain(`Full text: ${wholeId}`);
    expect(blobs.ids!()).toEqual([wholeId]);
  });

  it("recognises a write-time summary the status bar stamped, so an overflow batch does not compress it twice", () => {
    const summary = `${compressedHeader(9000, 300)}\nThe page lists three outages.`;
    expect(isCompressedText(`[2026-01-01 00:00:00] [Tool call #4 for 'fetch'] ${summary}`)).toBe(true);
    expect(isCompressedText(`[2026-01-01 00:00:00] ${summary}`)).toBe(true);
    expect(isCompressedText("[note] [COMPRESSED] planted by a page")).toBe(false);
  });
});
