import { describe, expect, it } from "vitest";
import { serializeAsOpenAI } from "./serialize-as-openai.js";
import { createPrefixGuard } from "../../context/prefix-guard/index.js";
import { getTokenCounter } from "../../tokens/get-token-counter.js";
import type { Message, ToolDefinition } from "../../types/index.js";
import { buildModeRequests, contextModes, expectedBreakLayer, slidingWindowSize, type Dialogue } from "./context-modes.js";

const meta = (id: string, origin: "user" | "model" | "tool") => ({ id, origin, createdAt: "" });
const tools: ToolDefinition[] = ["get_reservation_details", "cancel_reservation", "get_user_details", "search_direct_flight"].map((name) => ({
  name,
  description: `The ${name.replaceAll("_", " ")} tool.`,
  parameters: { type: "object", properties: { id: { type: "string" } } },
}));

function dialogue(): Dialogue {
  const messages: Message[] = [{ role: "user", content: "Cancel reservation ABC123 please.", meta: meta("u0", "user") }];
  for (let turn = 0; turn < 6; turn++) {
    messages.push({
      role: "assistant",
      content: [{ type: "tool_call", id: `call_${turn}`, name: "get_reservation_details", argumentsText: `{"id":"R${turn}"}`, arguments: { id: `R${turn}` } }],
      meta: meta(`a${turn}`, "model"),
    });
    messages.push({ role: "tool", toolCallId: `call_${turn}`, toolName: "get_reservation_details", content: `{"reservation_id":"R${turn}","status":"active"}`, isError: false, meta: meta(`t${turn}`, "tool") });
  }
  messages.push({ role: "assistant", content: [{ type: "text", text: "Cancelled." }], meta: meta("final", "model") });
  return { id: "d1", system: "# Airline policy\nBe careful.", tools, messages };
}

describe("context modes of experiment 2-3 under the prefix guard", () => {
  for (const mode of contextModes) {
    it(`${mode}: ${expectedBreakLayer[mode] ? `an undeclared break in ${expectedBreakLayer[mode]}` : "no break at all"}`, () => {
      const guard = createPrefixGuard({ counter: getTokenCounter("estimate"), serialize: serializeAsOpenAI });
      const breaks = buildModeRequests(dialogue(), mode)
        .map((request) => guard.check(request).cacheBreak)
        .filter((cacheBreak) => cacheBreak !== undefined);
      if (expectedBreakLayer[mode] === undefined) {
        expect(breaks).toEqual([]);
        return;
      }
      expect(breaks.length).toBeGreaterThan(0);
      for (const cacheBreak of breaks) {
        expect(cacheBreak.layer).toBe(expectedBreakLayer[mode]);
        expect(cacheBreak.declared).toBe(false);
        expect(cacheBreak.lostTokens).toBeGreaterThan(0);
      }
    });
  }

  it("keeps tool results with their calls in the sliding window", () => {
    for (const request of buildModeRequests(dialogue(), "sliding_window")) {
      expect(request.messages[0]?.role).not.toBe("tool");
      expect(request.messages.length).toBeLessThanOrEqual(slidingWindowSize);
      const callIds = request.messages.flatMap((message) =>
        message.role === "assistant" ? message.content.flatMap((part) => (part.type === "tool_call" ? [part.id] : [])) : [],
      );
      for (const message of request.messages) if (message.role === "tool") expect(callIds).toContain(message.toolCallId);
    }
  });
});
