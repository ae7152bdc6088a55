import { ProviderError, type ModelRequest, type Usage } from "../../types/index.js";
import { safeParseJson } from "../shared/canonical-json.js";
import { fetchWithRetry, type RetryOptions } from "../shared/fetch-with-retry.js";
import { jsonArrayItemTexts } from "../shared/json-array-item-texts.js";
import type { StreamTimeouts } from "../shared/stream-timeouts.js";
import { convertResponsesUsage } from "./convert-responses-usage.js";
import { convertToResponsesInput } from "./convert-to-responses-input.js";
import type { ResponsesUsage } from "./responses-wire-types.js";
import { readWholeBody } from "../shared/read-bounded-body.js";

/** What `/responses/compact` gave back: the window that replaces the whole input, item by item. */
export interface ResponsesCompaction {
  /**
   * The compacted window as Responses items, each the JSON text to send back unchanged: the kept
   * user messages and the opaque `compaction` item (`encrypted_content`) that stands for the rest.
   */
  items: string[];
  /** What the server billed for the compaction pass. */
  usage: Usage;
}

export interface CompactResponsesInput {
  fetch: typeof globalThis.fetch;
  /** `<baseURL>/responses/compact`. */
  url: string;
  headers: Record<string, string>;
  model: string;
  request: ModelRequest;
  retry: RetryOptions;
  timeouts: Required<StreamTimeouts>;
  signal?: AbortSignal;
}

const label = "OpenAI Responses compact";
/** A compacted window is a few encrypted items; a body past this is not one (a hostile or broken server). */
const maximumBodyBytes = 16 * 1024 * 1024;

/**
 * Writes the `/responses/compact` body: `model`, `instructions` and `input` — the trajectory as the
 * stream call sends it, without the tail (the status bar is never part of what is compacted).
 * https://platform.openai.com/docs/api-reference/responses/compact
 */
export function buildResponsesCompactBody(request: ModelRequest, model: string): string {
  const input = convertToResponsesInput(request.system, request.messages, undefined);
  const head = JSON.stringify({ model, ...(input.instructions === undefined ? {} : { instructions: input.instructions }) });
  return `${head.slice(0, -1)},"input":[${input.prefix.join(",")}]}`;
}

/**
 * One on-demand compaction pass (`POST /responses/compact`). The answer is a
 * `response.compaction` object whose `output` replaces the input as the next call's context; its
 * items are opaque (the compaction item is encrypted) and are kept as the server sent them.
 * Throws a typed ProviderError (HTTP failures after retries, an invalid body).
 */
export async function compactResponses(input: CompactResponsesInput): Promise<ResponsesCompaction> {
  const response = await fetchWithRetry({
    fetch: input.fetch,
    url: input.url,
    init: { method: "POST", headers: input.headers, body: buildResponsesCompactBody(input.request, input.model) },
    retry: input.retry,
    timeouts: input.timeouts,
    ...(input.signal ? { signal: input.signal } : {}),
    providerLabel: label,
  });
  const text = await readWholeBody(response, maximumBodyBytes, (limit) => invalid(`a body over ${limit} bytes`));
  const parsed = safeParseJson(text);
  if (!parsed.success) throw invalid(`a body that is not JSON (${parsed.error}): ${text.slice(0, 200)}`);
  const body = parsed.value as { object?: unknown; output?: unknown; usage?: unknown } | null;
  if (body === null || typeof body !== "object" || !Array.isArray(body.output)) throw invalid(`no \`output\` array: ${text.slice(0, 200)}`);
  body.output.forEach((item: unknown, index) => {
    if (item === null || typeof item !== "object" || Array.isArray(item) || typeof (item as { type?: unknown }).type !== "string") {
      throw invalid(`output item ${index} is not a Responses item`);
    }
  });
  // Each item in the server's own bytes (key order, spacing): the encrypted item goes back as it came.
  const items = jsonArrayItemTexts(text, "output") ?? body.output.map((item: unknown) => JSON.stringify(item));
  if (!body.output.some((item) => (item as { type: string }).type === "compaction")) {
    throw invalid("an output without a `compaction` item, so nothing would stand for the dropped context");
  }
  const usage = body.usage !== null && typeof body.usage === "object" ? convertResponsesUsage(body.usage as ResponsesUsage) : convertResponsesUsage(undefined);
  return { items, usage };
}

function invalid(what: string): ProviderError {
  return new ProviderError("provider_response_invalid", `${label} answered with ${what}; expected a response.compaction object. Check the base URL, or compact at a threshold instead.`);
}
