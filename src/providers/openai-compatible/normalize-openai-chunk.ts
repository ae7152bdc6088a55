import { CtxkitError, ProviderError } from "../../types/index.js";

/** One tool call's piece of a chunk. Ids and names usually come only in the first piece of an index. */
export interface OpenAIToolCallFragment {
  index: number;
  id?: string;
  name?: string;
  argumentsText?: string;
}

/** A streamed chunk or a whole JSON response, reduced to what ctxkit reads from it. */
export interface OpenAIChunk {
  /** The vendor's error, when the body is `{"error": …}` instead of a completion. */
  error?: { message: string; raw: string };
  text?: string;
  reasoning?: string;
  /** OpenRouter's `reasoning_details` items of this chunk (fragments when streaming), as sent. */
  reasoningDetails?: Record<string, unknown>[];
  toolCalls: OpenAIToolCallFragment[];
  finishReason?: string;
  usage?: unknown;
  /** The response's `id` and `model` (the model that answered), when sent. */
  id?: string;
  model?: string;
  /** llama-server's own counters (`timings.cache_n`, `prompt_n`, `predicted_n`), raw. */
  timings?: unknown;
}

/**
 * Validates an untrusted chunk (`source: "delta"`, streaming) or response (`"message"`) and keeps
 * the fields of the first choice. Throws `provider_response_invalid` for a shape it cannot read.
 */
export function normalizeOpenAIChunk(value: unknown, source: "delta" | "message"): OpenAIChunk {
  const chunk = record(value, "chunk");
  const result: OpenAIChunk = { toolCalls: [] };
  // OpenRouter and others send mid-stream failures as a data event: {"error":{"code":…,"message":…}}.
  if (chunk.error !== undefined && chunk.error !== null) {
    const error = chunk.error;
    const message =
      typeof error === "string" ? error : isRecord(error) && typeof error.message === "string" ? error.message : JSON.stringify(error);
    result.error = { message, raw: JSON.stringify(chunk) };
  }
  // The response's id and the model that answered (a dated snapshot of the requested alias), for traces.
  if (typeof chunk.id === "string" && chunk.id !== "") result.id = chunk.id.slice(0, 200);
  if (typeof chunk.model === "string" && chunk.model !== "") result.model = chunk.model.slice(0, 200);
  if (chunk.usage !== undefined && chunk.usage !== null) result.usage = chunk.usage;
  // Groq streams its usage as `x_groq.usage` on the finish chunk (its whole responses use `usage`).
  else if (isRecord(chunk.x_groq) && chunk.x_groq.usage !== undefined && chunk.x_groq.usage !== null) result.usage = chunk.x_groq.usage;
  if (chunk.timings !== undefined && chunk.timings !== null) result.timings = chunk.timings;
  if (chunk.choices === undefined || chunk.choices === null) return result;
  if (!Array.isArray(chunk.choices)) throw invalid("`choices` is not an array");
  const choices = chunk.choices.map((choice) => record(choice, "choice"));
  const choice = choices.find((candidate) => candidate.index === 0) ?? choices[0];
  if (choice === undefined) return result; // the usage-only chunk after the last choice: `choices: []`

  // Kimi streams its usage inside the last choice: choices[0].usage.
  if (choice.usage !== undefined && choice.usage !== null) result.usage = choice.usage;
  const finishReason = optionalString(choice.finish_reason, "finish_reason");
  if (finishReason !== undefined) result.finishReason = finishReason;
  if (choice[source] === undefined || choice[source] === null) return result;
  const delta = record(choice[source], source);

  const content = contentOf(delta.content);
  // OpenAI sends a refused answer as `refusal`, not `content` (`content: null`); it is the answer
  // the caller sees, as the Responses provider reads `response.refusal.delta`.
  const text = joined(content.text, optionalString(delta.refusal, "refusal"));
  if (text !== undefined) result.text = text;
  // DeepSeek, Kimi, GLM, vLLM and llama.cpp send `reasoning_content`; Ollama and OpenRouter send
  // `reasoning`. Some servers send both with the same text, so only one is read.
  const reasoning = joined(optionalString(delta.reasoning_content, "reasoning_content") ?? optionalString(delta.reasoning, "reasoning"), content.thinking);
  if (reasoning !== undefined) result.reasoning = reasoning;
  if (Array.isArray(delta.reasoning_details)) {
    const details = delta.reasoning_details.filter(isRecord);
    if (details.length > 0) result.reasoningDetails = details;
  }
  if (delta.tool_calls !== undefined && delta.tool_calls !== null) {
    if (!Array.isArray(delta.tool_calls)) throw invalid("`tool_calls` is not an array");
    result.toolCalls = delta.tool_calls.map((call, position) => toolCallFragment(call, position));
  }
  return result;
}

/**
 * `content` as a string, or as a list of chunks: Mistral's reasoning models (magistral) stream
 * `[{"type":"thinking","thinking":[{"type":"text","text":"…"}]}]` and then `[{"type":"text","text":"…"}]`
 * (https://docs.mistral.ai/capabilities/reasoning/); read as a string alone, every such chunk was
 * refused as not a string. Chunk types ctxkit does not model (images, references) are skipped.
 */
function contentOf(value: unknown): { text?: string; thinking?: string } {
  if (!Array.isArray(value)) {
    const text = optionalString(value, "content");
    return text === undefined ? {} : { text };
  }
  let text: string | undefined;
  let thinking: string | undefined;
  for (const item of value) {
    const chunk = record(item, "content chunk");
    if (chunk.type === "text") text = joined(text, optionalString(chunk.text, "content chunk text"));
    else if (chunk.type === "refusal") text = joined(text, optionalString(chunk.refusal, "content chunk refusal"));
    else if (chunk.type === "thinking") thinking = joined(thinking, thinkingText(chunk.thinking));
  }
  return { ...(text === undefined ? {} : { text }), ...(thinking === undefined ? {} : { thinking }) };
}

/** A thinking chunk's `thinking`: a list of text chunks (Mistral), or a plain string. */
function thinkingText(value: unknown): string | undefined {
  if (!Array.isArray(value)) return optionalString(value, "thinking");
  let text: string | undefined;
  for (const item of value) {
    const chunk = record(item, "thinking chunk");
    if (chunk.type === "text") text = joined(text, optionalString(chunk.text, "thinking chunk text"));
  }
  return text;
}

function joined(first: string | undefined, second: string | undefined): string | undefined {
  return first === undefined ? second : second === undefined ? first : first + second;
}

function toolCallFragment(value: unknown, position: number): OpenAIToolCallFragment {
  const call = record(value, "tool call");
  // Non-streaming responses (and a few servers when streaming) omit `index`: the position is the index.
  const index = typeof call.index === "number" && Number.isInteger(call.index) && call.index >= 0 ? call.index : position;
  const fragment: OpenAIToolCallFragment = { index };
  const id = optionalString(call.id, "tool call id");
  if (id !== undefined && id !== "") fragment.id = id;
  if (call.function !== undefined && call.function !== null) {
    const functionCall = record(call.function, "tool call function");
    const name = optionalString(functionCall.name, "tool call name");
    if (name !== undefined && name !== "") fragment.name = name;
    const argumentsText = argumentsTextOf(functionCall.arguments);
    if (argumentsText !== undefined) fragment.argumentsText = argumentsText;
  }
  return fragment;
}

function argumentsTextOf(value: unknown): string | undefined {
  // Some non-streaming servers send `arguments` as an object rather than OpenAI's JSON string.
  if (isRecord(value)) return JSON.stringify(value);
  return optionalString(value, "tool call arguments");
}

function record(value: unknown, what: string): Record<string, unknown> {
  if (isRecord(value)) return value;
  throw invalid(`${what} is not a JSON object`);
}

function optionalString(value: unknown, what: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string") return value;
  throw invalid(`\`${what}\` is not a string`);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function invalid(detail: string): CtxkitError {
  return new ProviderError(
    "provider_response_invalid",
    `The server sent a response ctxkit cannot read: ${detail}. Check that the base URL points at an OpenAI-compatible /v1 endpoint.`,
  );
}
