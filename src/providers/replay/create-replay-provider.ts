import { TranscriptError } from "../../types/index.js";
import { createScriptedProvider, type ScriptedProvider } from "../scripted/create-scripted-provider.js";
import type { ScriptedTurn } from "../scripted/scripted-turn.js";

/** An assistant message as OpenAI-style transcripts record it (τ-bench, request logs, ctxkit exports). */
export interface RecordedAssistantMessage {
  role: "assistant";
  content?: string | null;
  reasoning_content?: string | null;
  tool_calls?: Array<{ id: string; type?: string; function: { name: string; arguments: string } }> | null;
}

export interface ReplayProviderOptions {
  /** A recorded chat: its assistant messages become the model's turns, in order. */
  transcript: ReadonlyArray<{ role: string }>;
  name?: string;
  model?: string;
}

/**
 * Replays the assistant turns of a recorded transcript as a provider, so a real run can be driven
 * through ctxkit's loop, tools and context machinery without a model. Tool-call ids and argument
 * strings are replayed exactly as recorded.
 */
export function createReplayProvider(options: ReplayProviderOptions): ScriptedProvider {
  const turns = options.transcript.filter((message) => message.role === "assistant").map((message, index) => toTurn(message as RecordedAssistantMessage, index));
  return createScriptedProvider({ turns, name: options.name ?? "replay", model: options.model ?? "replay-model" });
}

function toTurn(message: RecordedAssistantMessage, index: number): ScriptedTurn {
  if (message.tool_calls !== undefined && message.tool_calls !== null && !Array.isArray(message.tool_calls)) {
    throw new TranscriptError(`Assistant turn ${index} has a tool_calls field that is not a list.`);
  }
  return {
    ...(message.content ? { text: message.content } : {}),
    ...(message.reasoning_content ? { thinking: message.reasoning_content } : {}),
    toolCalls: (message.tool_calls ?? []).map((call) => ({ id: call.id, name: call.function.name, argumentsText: call.function.arguments })),
  };
}
