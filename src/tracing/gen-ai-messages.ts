import type { Message, ModelRequest, SystemPrompt } from "../types/index.js";

/** A message part as the conventions' JSON schemas spell them (gen-ai-input-messages.json). */
type Part =
  | { type: "text"; content: string }
  | { type: "reasoning"; content: string }
  | { type: "tool_call"; id: string; name: string; arguments: unknown }
  | { type: "tool_call_response"; id: string; response: string };

/** `gen_ai.system_instructions`: the system prompt as text parts (static part, then the session part). */
export function systemInstructionsOf(system: SystemPrompt): Part[] {
  return [system.staticText, system.sessionText ?? ""].filter((text) => text !== "").map((content) => ({ type: "text", content }));
}

/** `gen_ai.input.messages`: what this call sent after the system prompt, the trajectory and then the tail. */
export function inputMessagesOf(request: ModelRequest): Array<{ role: string; parts: Part[] }> {
  return [...request.messages, ...(request.tail ? [request.tail] : [])].map(toChatMessage);
}

function toChatMessage(message: Message): { role: string; parts: Part[] } {
  switch (message.role) {
    case "system":
    case "user":
      return { role: message.role, parts: [{ type: "text", content: message.content }] };
    case "tool":
      return { role: "tool", parts: [{ type: "tool_call_response", id: message.toolCallId, response: message.content }] };
    case "assistant":
      return {
        role: "assistant",
        parts: message.content.flatMap((part): Part[] => {
          if (part.type === "text") return [{ type: "text", content: part.text }];
          if (part.type === "thinking") return part.thinking === "" ? [] : [{ type: "reasoning", content: part.thinking }];
          if (part.type === "tool_call") return [{ type: "tool_call", id: part.id, name: part.name, arguments: part.arguments ?? part.argumentsText }];
          return [];
        }),
      };
  }
}
