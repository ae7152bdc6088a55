import type { Message, ToolDefinition } from "../../../types/index.js";
import type { Dialogue } from "../context-modes.js";

const meta = (id: string, origin: "user" | "model" | "tool") => ({ id, origin, createdAt: "" });

export const sampleTools: ToolDefinition[] = ["search_direct_flight", "get_reservation_details", "cancel_reservation", "get_user_details", "update_reservation_baggages"].map(
  (name) => ({
    name,
    description: `The ${name.replaceAll("_", " ")} tool. Use it only after confirming the details with the user.`,
    parameters: { type: "object", properties: { id: { type: "string", description: "The identifier, such as 'ZFA04Y'." } }, required: ["id"] },
  }),
);

/** A policy long enough (> 1,024 tokens) that both vendors' prompt caches apply. */
export const samplePolicy = [
  "# Airline agent policy",
  ...Array.from({ length: 40 }, (_, rule) => `- Rule ${rule + 1}: before any action that updates a booking (${rule}), list the action details and obtain explicit confirmation (yes) to proceed.`),
].join("\n");

/**
 * A small τ-bench-like dialogue written for the tests: a user request, `turns` tool calls with their
 * results, a question back to the user, and a final answer.
 */
export function sampleDialogue(turns = 6, id = "sample"): Dialogue {
  const messages: Message[] = [{ role: "user", content: "Please cancel reservation ABC123; my user id is mia_li_3668.", meta: meta("u0", "user") }];
  for (let turn = 0; turn < turns; turn++) {
    messages.push({
      role: "assistant",
      content: [{ type: "tool_call", id: `call_${turn}`, name: "get_reservation_details", argumentsText: `{"id": "R${turn}"}`, arguments: { id: `R${turn}` } }],
      meta: meta(`a${turn}`, "model"),
    });
    messages.push({
      role: "tool",
      toolCallId: `call_${turn}`,
      toolName: "get_reservation_details",
      content: `{"reservation_id": "R${turn}", "status": "active", "flights": [{"flight_number": "HAT0${turn}7", "date": "2024-05-1${turn}"}]}`,
      isError: false,
      meta: meta(`t${turn}`, "tool"),
    });
    if (turn === 2) {
      messages.push({ role: "assistant", content: [{ type: "text", text: "Shall I cancel R2? (yes/no)" }], meta: meta("ask", "model") });
      messages.push({ role: "user", content: "yes", meta: meta("u1", "user") });
    }
  }
  messages.push({ role: "assistant", content: [{ type: "text", text: "Your reservation is cancelled." }], meta: meta("final", "model") });
  return { id, system: samplePolicy, tools: sampleTools, messages };
}
