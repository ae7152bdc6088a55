import { ContextOverflowError, CtxkitError, ProviderError } from "../../types/index.js";
import { isContextOverflowMessage } from "../shared/context-overflow.js";
import { safeParseJson } from "../shared/canonical-json.js";
import { readWholeBody } from "../shared/read-bounded-body.js";
import { defaultMaxEventCharacters, parseServerSentEvents } from "../shared/server-sent-events.js";
import { normalizeOpenAIChunk, type OpenAIChunk } from "./normalize-openai-chunk.js";

/**
 * Turns a response body into normalised chunks: SSE `data:` events when streaming, or the whole
 * JSON completion as one chunk. A server that ignores `stream: true` and answers with
 * `application/json` is read as JSON. Throws typed errors; the caller turns them into the terminal event.
 */
export function readOpenAIResponseChunks(
  response: Response,
  streamRequested: boolean,
  providerLabel: string,
  maxEventCharacters?: number,
): AsyncGenerator<OpenAIChunk> {
  const isJson = (response.headers.get("content-type") ?? "").includes("application/json");
  if (streamRequested && !isJson) return readEventStream(response, providerLabel, maxEventCharacters);
  return readJsonBody(response, providerLabel, maxEventCharacters ?? defaultMaxEventCharacters);
}

async function* readEventStream(response: Response, providerLabel: string, maxEventCharacters: number | undefined): AsyncGenerator<OpenAIChunk> {
  if (response.body === null) throw emptyBody(providerLabel);
  let finished = false;
  for await (const event of parseServerSentEvents(response.body, maxEventCharacters === undefined ? {} : { maxEventCharacters })) {
    const data = event.data.trim();
    if (data === "") continue;
    if (data === "[DONE]") return;
    const parsed = safeParseJson(data);
    if (!parsed.success) {
      // Some servers (Cohere's compatibility layer) send the bare error text as an event's data.
      if (isContextOverflowMessage(data)) throw new ContextOverflowError(data.slice(0, 500), data);
      throw new ProviderError(
        "provider_response_invalid",
        `${providerLabel} sent a stream chunk that is not JSON (${parsed.error}): ${data.slice(0, 200)}`,
      );
    }
    const chunk = normalizeOpenAIChunk(parsed.value, "delta");
    if (chunk.finishReason !== undefined) finished = true;
    yield chunk;
  }
  // Ended without `data: [DONE]`: complete if a finish_reason came, otherwise the body was cut.
  if (!finished) {
    throw new ProviderError(
      "provider_connection_error",
      `${providerLabel} closed the stream before the response was complete. Retry the request.`,
      { isRetryable: true },
    );
  }
}

async function* readJsonBody(response: Response, providerLabel: string, maximumCharacters: number): AsyncGenerator<OpenAIChunk> {
  // The whole answer is one "event": the same bound as a streamed one, so a server cannot exhaust memory.
  const text = await readWholeBody(response, maximumCharacters, (limit) =>
    new ProviderError(
      "provider_event_too_large",
      `${providerLabel} sent a JSON response of more than ${limit} bytes, which is refused to bound memory. ` +
        "Check that the base URL points at a real model server, or raise the provider's `maxEventCharacters` option.",
    ),
  );
  if (text.trim() === "") throw emptyBody(providerLabel);
  const parsed = safeParseJson(text);
  if (!parsed.success) {
    throw new ProviderError(
      "provider_response_invalid",
      `${providerLabel} sent a response that is not JSON (${parsed.error}): ${text.slice(0, 200)}. ` +
        "Check that the base URL points at an OpenAI-compatible /v1 endpoint.",
    );
  }
  const chunk = normalizeOpenAIChunk(parsed.value, "message");
  // A whole completion carries a choice or an error; anything else (another API's JSON) would
  // otherwise read as an empty final answer.
  if (chunk.error === undefined && !hasChoice(parsed.value)) {
    throw new ProviderError(
      "provider_response_invalid",
      `${providerLabel} answered with JSON that is not a chat completion (no \`choices\`): ${text.slice(0, 200)}. ` +
        "Check that the base URL points at an OpenAI-compatible /v1 endpoint (it usually ends in /v1).",
    );
  }
  yield chunk;
}

function hasChoice(value: unknown): boolean {
  const choices = (value as { choices?: unknown }).choices;
  return Array.isArray(choices) && choices.length > 0;
}

function emptyBody(providerLabel: string): CtxkitError {
  return new ProviderError("provider_response_invalid", `${providerLabel} sent an empty response body. Retry the request.`, {
    isRetryable: true,
  });
}
