import type { ModelRequest } from "../types/model-request.js";
import type { PromptTokens } from "../tokens/prompt-tokens.js";
import type { AssistantPart, CtxkitError, StopReason, Usage } from "../types/index.js";

/** `Provider.reasoningEffort` of a provider that sends no effort setting and leaves it to the model. */
export const providerDefaultEffort = "default";

/** What the model produced in one call, before the loop stamps it with an id and time. */
export interface ModelResponse {
  content: AssistantPart[];
  stopReason: StopReason;
  rawStopReason?: string;
  /** What the server reported about the response (the id it gave it, the model that answered), for traces. */
  id?: string;
  model?: string;
}

/**
 * Events of one streamed model call. The stream ends with exactly one `done` or `error` event.
 *
 * `index` is the content block's position in the final `response.content` (so a thinking block, a
 * text block and two tool calls are 0, 1, 2, 3). Blocks may interleave (parallel tool calls). The
 * `*_start` / `*_end` events are optional: the loop opens a block at its first delta and closes
 * every open block at `done`. A provider that only knows deltas may leave `index` off text and
 * thinking deltas; the loop then starts a new block whenever the kind changes.
 */
export type ProviderEvent =
  | { type: "start" }
  | { type: "text_start"; index: number }
  | { type: "text_delta"; index?: number; delta: string }
  | { type: "text_end"; index: number }
  | { type: "thinking_start"; index: number }
  | { type: "thinking_delta"; index?: number; delta: string }
  | { type: "thinking_end"; index: number }
  | { type: "tool_call_start"; index: number; id: string; name: string }
  | { type: "tool_call_delta"; index: number; delta: string }
  /** `argumentsText` is the call's final argument text when it differs from the joined deltas (e.g. "{}" for none). */
  | { type: "tool_call_end"; index: number; argumentsText?: string }
  | { type: "done"; response: ModelResponse; usage: Usage }
  | { type: "error"; error: CtxkitError; partial: ModelResponse; usage?: Usage };

/**
 * A request body as it goes on the wire, and how much of it is the reusable prefix: the bytes
 * before the tail message. For consecutive calls without a declared break,
 * `previous.body.slice(0, previous.prefixLength)` is a byte-prefix of `next.body`. Fields that are
 * not part of the prompt the model sees (Anthropic's `cache_control` markers) are left out here.
 */
export interface SerializedRequest {
  body: string;
  prefixLength: number;
}

/** The provider contract versions this ctxkit implements (one so far). */
export type ProviderSpecificationVersion = "v1";

/**
 * The provider contract. `stream` never throws once called: every failure (HTTP error after
 * retries, broken stream, abort) arrives as a terminal `error` event with the partial response.
 * Misuse (missing key, invalid settings) fails fast in the factory, before any I/O.
 */
export interface Provider {
  /**
   * Which version of this contract the provider implements (the AI SDK's `specificationVersion`
   * idea): a provider written for another version is refused by `createAgent` with a typed error
   * (`provider_contract_unsupported`) instead of failing halfway through a run.
   */
  readonly specificationVersion: ProviderSpecificationVersion;
  /** e.g. "openai-compatible:vllm" or "anthropic". */
  readonly name: string;
  readonly model: string;
  /** The server the provider calls (its base URL), when it calls one: traces report its host and port. */
  readonly baseURL?: string;
  stream(request: ModelRequest, signal?: AbortSignal): AsyncIterable<ProviderEvent>;
  /**
   * The exact wire body `stream` sends for this request (the prefix guard compares these, and the
   * session stores a hash of each). Deterministic: the same request always gives the same bytes.
   */
  serialize(request: ModelRequest): SerializedRequest;
  /**
   * The prompt tokens the model will see, for providers that render and tokenize the prompt
   * themselves (an embedded engine): the prefix guard then checks tokens as well as bytes.
   */
  promptTokens?(request: ModelRequest): PromptTokens;
  /**
   * The provider sends `request.deferredTools` in its native deferred form with its own search
   * (Anthropic's `defer_loading` + tool-search server tool); the model then calls found tools directly.
   */
  readonly nativeToolSearch?: boolean;
  /**
   * How long the provider keeps a prompt-cache entry after its last use, in ms, when it says
   * (Anthropic's `ttl`, OpenAI's retention). Used to tell an expired cache from a provider's miss.
   */
  readonly cacheLifetimeMs?: number;
  /** The provider compacts on its side when a request sets `serverCompaction` (Anthropic's compact_20260112). */
  readonly compactsOnRequest?: boolean;
  /**
   * With `compactsOnRequest`: the smallest prompt, in input tokens, the server compacts (Anthropic:
   * 50 000). A smaller prompt is answered without compacting; the loop's warning says which case it was.
   */
  readonly compactionMinimumTokens?: number;
  /**
   * The reasoning effort the provider sends when a request does not set `settings.reasoningEffort`
   * ("default" when it leaves it to the model), for the session's per-call record. Absent when the
   * provider sends no effort at all: then a request's effort is ignored and nothing is recorded.
   */
  readonly reasoningEffort?: string;
  /** The efforts a request may set, when the provider has a fixed list: `agent.setReasoningEffort` checks against it. */
  readonly reasoningEfforts?: readonly string[];
  /**
   * The output limit the provider sends when a request sets no `settings.maxOutputTokens`
   * (Anthropic requires `max_tokens`: 8 192 unless its settings say otherwise). Absent when it
   * sends none and the model's own limit applies. Budgets reserve it as a call's most output.
   */
  readonly maxOutputTokens?: number;
}
