import { describe, expect, it } from "vitest";
import { renderModelRequest } from "../../tokens/index.js";
import type { Message, ModelRequest } from "../../types/index.js";
import { buildModeRequests, contextModes } from "./context-modes.js";
import { createIncrementalQwen3Renderer } from "./incremental-qwen3-renderer.js";
import { sampleDialogue, sampleTools } from "./test-support/sample-dialogue.js";

const meta = (id: string) => ({ id, origin: "model" as const, createdAt: "" });

describe("incremental Qwen3 rendering", () => {
  for (const mode of contextModes) {
    it(`${mode}: renders every request exactly as the full template does`, () => {
      const renderer = createIncrementalQwen3Renderer();
      for (const request of buildModeRequests(sampleDialogue(), mode)) expect(renderer.render(request)).toBe(renderModelRequest(request));
    });
  }

  it("renders thinking after the last query, parallel tool results, a tail, and requests without system or tools", () => {
    const messages: Message[] = [
      { role: "user", content: "Find flights and my reservations.", meta: meta("u") },
      {
        role: "assistant",
        content: [
          { type: "thinking", thinking: "Two lookups at once." },
          { type: "text", text: "Looking." },
          { type: "tool_call", id: "c1", name: "search_direct_flight", argumentsText: '{"id": "JFK"}', arguments: { id: "JFK" } },
          { type: "tool_call", id: "c2", name: "get_user_details", argumentsText: '{"id": "mia"}', arguments: { id: "mia" } },
        ],
        meta: meta("a1"),
      },
      { role: "tool", toolCallId: "c1", toolName: "search_direct_flight", content: "[]", isError: false, meta: meta("t1") },
      { role: "tool", toolCallId: "c2", toolName: "get_user_details", content: '{"name": "Mia"}', isError: false, meta: meta("t2") },
      { role: "assistant", content: [{ type: "thinking", thinking: "Done." }, { type: "text", text: "No flights." }], meta: meta("a2") },
    ];
    const base: ModelRequest = { system: { staticText: "Policy." }, tools: sampleTools, messages, cacheBreakpoints: [], settings: {} };
    const variants: ModelRequest[] = [
      base,
      { ...base, messages: messages.slice(0, 4) },
      { ...base, tail: { role: "user", content: "<status>call 3</status>", meta: meta("tail") } },
      { ...base, system: { staticText: "" } },
      { ...base, tools: [] },
      { ...base, system: { staticText: "" }, tools: [] },
      { ...base, messages: [] },
    ];
    const renderer = createIncrementalQwen3Renderer();
    for (const request of variants) expect(renderer.render(request)).toBe(renderModelRequest(request));
  });
});
