import { describe, expect, it } from "vitest";
import type { Message, ModelRequest, ToolDefinition } from "../types/index.js";
import { renderModelRequest } from "./count-rendered-prompt.js";
import { createIncrementalQwen3Renderer } from "./incremental-qwen3-renderer.js";

const meta = (id: string) => ({ id, origin: "model" as const, createdAt: "" });
const tools: ToolDefinition[] = ["search_direct_flight", "get_reservation_details", "cancel_reservation", "get_user_details", "update_reservation_baggages"].map((name) => ({
  name,
  description: `The ${name.replaceAll("_", " ")} tool. Use it only after confirming the details with the user.`,
  parameters: { type: "object", properties: { id: { type: "string", description: "The identifier, such as 'ZFA04Y'." } }, required: ["id"] },
}));
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
const base: ModelRequest = { system: { staticText: "Policy." }, tools, messages, cacheBreakpoints: [], settings: {} };

describe("incremental Qwen3 rendering", () => {
  it("renders thinking after the last query, parallel tool results, a tail, and requests without system or tools", () => {
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

  it("cuts the prompt into the header, one piece per message (the tail last) and the generation prompt", () => {
    const renderer = createIncrementalQwen3Renderer();
    const request: ModelRequest = { ...base, tail: { role: "user", content: "<status>call 3</status>", meta: meta("tail") } };
    const pieces = renderer.renderPieces(request);
    expect(pieces.map((piece) => piece.text).join("")).toBe(renderModelRequest(request));
    expect(pieces.map((piece) => piece.messageIndex ?? piece.source)).toEqual(["header", 0, 1, 2, 3, 4, 5, "generation_prompt"]);
    // The second of two parallel tool results continues the first one's user turn.
    expect(pieces[3]!.text.startsWith("<|im_start|>user\n<tool_response>")).toBe(true);
    expect(pieces[4]!.text.startsWith("\n<tool_response>")).toBe(true);
    // Without a system prompt or tools there is no header.
    expect(renderer.renderPieces({ ...base, system: { staticText: "" }, tools: [] })[0]!.source).toBe("message");
  });

  it("renders the header with and without the tool list", () => {
    const renderer = createIncrementalQwen3Renderer();
    expect(renderer.renderHeader("Policy.")).toBe("<|im_start|>system\nPolicy.<|im_end|>\n");
    expect(renderer.renderHeader("")).toBe("");
    expect(renderer.renderHeader("Policy.", tools)).toBe(renderModelRequest({ ...base, messages: [] }).slice(0, -"<|im_start|>assistant\n".length));
  });
});
