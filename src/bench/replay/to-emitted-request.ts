import { convertToOpenAIMessages } from "../../providers/openai-compatible/convert-to-openai-messages.js";
import type { ModelRequest } from "../../types/index.js";

/** A Chat Completions message (`role`, `content`, and `tool_calls`, `tool_call_id` or `reasoning_content`). */
export interface OpenAIChatMessage {
  role: "system" | "user" | "assistant" | "tool";
  content: string | null;
  [field: string]: unknown;
}

/** One line of an `--emit-requests` file: a replayed call as OpenAI Chat Completions messages. */
export interface EmittedRequest {
  run: string;
  call: number;
  promptTokens: number;
  messages: OpenAIChatMessage[];
}

/**
 * The request as an OpenAI-compatible server would receive it, so others can re-count the tokens
 * with their own tokenizer. Reasoning kept in the context is sent (`reasoning_content`), since it
 * is part of what the policy chose to keep.
 */
export function toEmittedRequest(run: string, call: number, promptTokens: number, request: ModelRequest): EmittedRequest {
  const converted = convertToOpenAIMessages({ system: request.system, messages: request.messages, reasoningRoundTrip: "send", ...(request.tail ? { tail: request.tail } : {}) });
  return { run, call, promptTokens, messages: converted.tail ? [...converted.prefix, converted.tail] : converted.prefix };
}
