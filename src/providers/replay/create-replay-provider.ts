import { ConfigError, textOf, thinkingOf, toolCallsOf, TranscriptError, type AssistantMessage, type AssistantPart } from "../../types/index.js";
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
  /**
   * A recorded chat: its assistant messages become the model's turns, in order. OpenAI-style
   * messages (`content` a string, `tool_calls`) or ctxkit's own (`content` a list of parts, as a
   * session's `store.load(id).messages` holds them).
   */
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
  if (!Array.isArray(options?.transcript)) {
    throw new ConfigError("option_invalid", "createReplayProvider needs `transcript`: the recorded messages (OpenAI-style, or a ctxkit session's store.load(id).messages) whose assistant turns it replays.");
  }
  const turns = options.transcript.filter((message) => message.role === "assistant").map((message, index) => toTurn(message as RecordedAssistantMessage, index));
  return createScriptedProvider({ turns, name: options.name ?? "replay", model: options.model ?? "replay-model" });
}

function toTurn(message: RecordedAssistantMessage | { role: "assistant"; content: readonly AssistantPart[] }, index: number): ScriptedTurn {
  // A ctxkit session's message: its parts, not OpenAI's fields (its text was replayed as "[object Object]" and its calls lost).
  if (Array.isArray(message.content)) return partsToTurn(message as AssistantMessage, index);
  if (message.content !== undefined && message.content !== null && typeof message.content !== "string") {
    throw new TranscriptError(`Assistant turn ${index} has a content that is neither text nor a list of ctxkit message parts.`);
  }
  return recordedToTurn(message as RecordedAssistantMessage, index);
}

function partsToTurn(message: AssistantMessage, index: number): ScriptedTurn {
  const text = textOf(message);
  const thinkingParts = thinkingOf(message);
  const thinking = thinkingParts.map((part) => part.thinking).join("");
  const signature = thinkingParts.find((part) => part.signature !== undefined)?.signature;
  const toolCalls = toolCallsOf(message).map((part) => {
    if (typeof part.name !== "string" || typeof part.argumentsText !== "string") throw new TranscriptError(`Assistant turn ${index} has a tool_call part without a name or argumentsText.`);
    return { id: part.id, name: part.name, argumentsText: part.argumentsText };
  });
  return {
    ...(text ? { text } : {}),
    ...(thinking ? { thinking } : {}),
    ...(signature !== undefined ? { thinkingSignature: signature } : {}),
    toolCalls,
    // A paused turn (Anthropic's pause_turn) was not the answer: replayed as "stop" it ended the run there.
    ...(message.stopReason === "paused" ? { stopReason: "paused" as const } : {}),
  };
}

function recordedToTurn(message: RecordedAssistantMessage, index: number): ScriptedTurn {
  if (message.tool_calls !== undefined && message.tool_calls !== null && !Array.isArray(message.tool_calls)) {
    throw new TranscriptError(`Assistant turn ${index} has a tool_calls field that is not a list.`);
  }
  return {
    ...(message.content ? { text: message.content } : {}),
    ...(message.reasoning_content ? { thinking: message.reasoning_content } : {}),
    toolCalls: (message.tool_calls ?? []).map((call) => ({ id: call.id, name: call.function.name, argumentsText: call.function.arguments })),
  };
}
