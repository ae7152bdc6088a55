import type { AssistantMessage, Message, ModelRequest } from "../../types/index.js";
import { buildModeRequests, contextModes, type ContextMode, type Dialogue } from "../kv-cache/context-modes.js";

/**
 * Request sequences a prefix guard is judged on: the six context modes of experiment 2-3, and three
 * that separate a guard that compares what is sent from one that compares ctxkit's own objects:
 * - `internal_fields`: earlier messages re-created with fields no wire format sends changed (new ids,
 *   stop reasons, tool names on results, error flags, origins) — identical on the wire;
 * - `qwen3_reasoning`: assistant turns carry reasoning, which Qwen3's template stops rendering once a
 *   new user query follows — identical JSON, different prompt tokens;
 * - `serializer_change`: from the middle of the dialogue on, the wire format writes earlier messages'
 *   bytes differently (a provider update) — identical objects, different bytes.
 */
export const guardScenarios = [...contextModes, "internal_fields", "qwen3_reasoning", "serializer_change"] as const;
export type GuardScenario = (typeof guardScenarios)[number];

export interface ScenarioRequests {
  requests: ModelRequest[];
  /** From this call on, the wire format is the changed one (serializer_change only). */
  serializerChangesAt?: number;
}

export function buildScenarioRequests(dialogue: Dialogue, scenario: GuardScenario): ScenarioRequests {
  if ((contextModes as readonly string[]).includes(scenario)) return { requests: buildModeRequests(dialogue, scenario as ContextMode) };
  const correct = buildModeRequests(dialogue, "correct");
  switch (scenario) {
    case "internal_fields":
      return { requests: correct.map((request, call) => ({ ...request, messages: request.messages.map((message) => withInternalChanges(message, call)) })) };
    case "qwen3_reasoning": {
      const withReasoning = new Map<Message, Message>();
      const reasoned = (message: Message) => {
        if (message.role !== "assistant") return message;
        let copy = withReasoning.get(message);
        if (copy === undefined) withReasoning.set(message, (copy = { ...message, content: [{ type: "thinking", thinking: "Check the policy before acting." }, ...message.content] }));
        return copy;
      };
      return { requests: correct.map((request) => ({ ...request, messages: request.messages.map(reasoned) })) };
    }
    default:
      return { requests: correct, serializerChangesAt: Math.max(1, Math.floor(correct.length / 2)) };
  }
}

/** The same message with only ctxkit-internal fields changed (a fresh object each call, as after a reload). */
function withInternalChanges(message: Message, call: number): Message {
  const meta = { ...message.meta, id: `${message.meta.id}-reloaded-${call}`, createdAt: `call ${call}` };
  switch (message.role) {
    case "assistant": {
      const assistant: AssistantMessage = {
        ...message,
        meta,
        stopReason: call % 2 === 0 ? "tool_calls" : "stop",
        rawStopReason: `raw-${call}`,
        // A fresh copy of the parts, as after loading the session again (same text, new objects).
        content: message.content.map((part) => ({ ...part })),
      };
      return assistant;
    }
    case "tool":
      return { ...message, meta, toolName: `${message.toolName}-${call % 2}`, isError: call % 2 === 1 };
    default:
      return { ...message, meta: { ...meta, origin: call % 2 === 0 ? message.meta.origin : "harness" } };
  }
}
