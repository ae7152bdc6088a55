import { ContextOverflowError, CtxkitError, type AssistantPart, type StopReason, type Usage, ProviderError } from "../../types/index.js";
import { safeParseJson } from "../shared/canonical-json.js";
import { isContextOverflow } from "../shared/context-overflow.js";
import type { ModelResponse, ProviderEvent } from "../provider.js";
import type { AnthropicUsage } from "./anthropic-wire-types.js";
import { convertAnthropicUsage, mergeAnthropicUsage } from "./convert-anthropic-usage.js";
import { mapAnthropicStopReason } from "./map-anthropic-stop-reason.js";
import { isServerBlockType } from "./server-block-type.js";

/** `position` is the block's index in the response content; undefined until it holds something. */
type BlockState =
  | { kind: "text"; text: string; position?: number }
  | { kind: "thinking"; thinking: string; signature: string; position?: number }
  | { kind: "redacted_thinking"; data: string; position?: number }
  | { kind: "tool_use"; id: string; name: string; json: string; position?: number }
  /** A block the API ran itself (`server_tool_use`, `*_tool_result`): kept whole, its input from the deltas. */
  | { kind: "server"; start: Json; json: string; position?: number }
  /** Block types ctxkit does not model (citations-only blocks, types added later): skipped, not an error. */
  | { kind: "ignored" };

type Json = Record<string, unknown>;

/**
 * Folds the parsed `data` of Anthropic stream events
 * (https://docs.anthropic.com/en/docs/build-with-claude/streaming) into a response, returning the
 * provider events each one produces. Throws a CtxkitError for a protocol violation or an in-stream
 * `error` event; the caller turns that into the terminal error event.
 *
 * Event indexes are positions in the final response content, not Anthropic's content block index:
 * blocks ctxkit does not model and text blocks that stay empty are not in the
 * response, so a text block gets its position at its first text. Anthropic streams one block at a
 * time, so positions follow the order blocks start; `content_block_stop` ends the block.
 */
export class AnthropicStreamAccumulator {
  private readonly blocks = new Map<number, BlockState>();
  private rawUsage: AnthropicUsage | undefined;
  private responseId: string | undefined;
  private responseModel: string | undefined;
  private rawStopReason: string | undefined;
  private positions = 0;
  private appliedEdits: Json[] = [];
  isFinished = false;

  apply(data: unknown): ProviderEvent[] {
    if (!isObject(data) || typeof data.type !== "string") throw invalid(`an event without a type: ${preview(data)}`);
    switch (data.type) {
      case "message_start": {
        const message = isObject(data.message) ? data.message : {};
        this.rawUsage = isObject(message.usage) ? (message.usage as AnthropicUsage) : {};
        // The message's id and the model that answered, for traces.
        if (typeof message.id === "string" && message.id !== "") this.responseId = message.id.slice(0, 200);
        if (typeof message.model === "string" && message.model !== "") this.responseModel = message.model.slice(0, 200);
        return [];
      }
      case "content_block_start":
        return this.startBlock(data);
      case "content_block_delta":
        return this.applyDelta(data);
      case "message_delta": {
        const delta = isObject(data.delta) ? data.delta : {};
        if (typeof delta.stop_reason === "string") this.rawStopReason = delta.stop_reason;
        if (isObject(data.usage)) this.rawUsage = mergeAnthropicUsage(this.rawUsage ?? {}, data.usage as AnthropicUsage);
        // What the server's context management did before this call (cleared tool uses, thinking).
        const management = isObject(data.context_management) ? data.context_management : undefined;
        if (management && Array.isArray(management.applied_edits)) this.appliedEdits = management.applied_edits.filter(isObject);
        return [];
      }
      case "message_stop":
        this.isFinished = true;
        return [];
      case "error":
        throw streamedError(isObject(data.error) ? data.error : {});
      case "content_block_stop":
        return this.stopBlock(data);
      default:
        // ping, and event types added later: "your code should handle unknown event types gracefully".
        return [];
    }
  }

  /** The response so far, blocks in their index order. */
  response(override?: StopReason): ModelResponse {
    const content: AssistantPart[] = [];
    for (const [, block] of [...this.blocks.entries()].sort(([left], [right]) => left - right)) {
      const part = toPart(block);
      if (part !== undefined) content.push(part);
    }
    const hasToolCalls = content.some((part) => part.type === "tool_call");
    const stopReason = override ?? mapAnthropicStopReason(this.rawStopReason, hasToolCalls);
    return {
      content,
      stopReason,
      ...(this.rawStopReason === undefined ? {} : { rawStopReason: this.rawStopReason }),
      ...(this.responseId === undefined ? {} : { id: this.responseId }),
      ...(this.responseModel === undefined ? {} : { model: this.responseModel }),
    };
  }

  /** Undefined until `message_start` reported usage. */
  usage(): Usage | undefined {
    return this.rawUsage === undefined ? undefined : convertAnthropicUsage(this.rawUsage, this.appliedEdits);
  }

  private startBlock(data: Json): ProviderEvent[] {
    const index = data.index;
    const block = data.content_block;
    if (typeof index !== "number" || !isObject(block)) throw invalid(`a content_block_start without index or block: ${preview(data)}`);
    // Replacing the block would silently drop what was streamed into it; the call fails instead, with
    // the earlier block kept in the partial response.
    if (this.blocks.has(index)) throw invalid(`a second content_block_start for index ${index}, which is already in use: ${preview(data)}`);
    switch (block.type) {
      case "text": {
        const state: BlockState = { kind: "text", text: "" };
        this.blocks.set(index, state);
        return this.appendText(state, stringOr(block.text));
      }
      case "thinking": {
        const thinking = stringOr(block.thinking);
        const position = this.positions++;
        this.blocks.set(index, { kind: "thinking", thinking, signature: stringOr(block.signature), position });
        return [{ type: "thinking_start", index: position }, ...(thinking === "" ? [] : [{ type: "thinking_delta" as const, index: position, delta: thinking }])];
      }
      case "redacted_thinking": {
        const position = this.positions++;
        this.blocks.set(index, { kind: "redacted_thinking", data: stringOr(block.data), position });
        return [{ type: "thinking_start", index: position }];
      }
      case "tool_use": {
        if (typeof block.id !== "string" || typeof block.name !== "string") throw invalid(`a tool_use block without id or name: ${preview(block)}`);
        // The start event carries `input: {}`; the real input arrives as input_json_delta fragments.
        const position = this.positions++;
        this.blocks.set(index, { kind: "tool_use", id: block.id, name: block.name, json: "", position });
        return [{ type: "tool_call_start", index: position, id: block.id, name: block.name }];
      }
      default:
        // Server blocks produce no events (nothing to show while they stream), only a place in the content.
        if (isServerBlockType(block.type)) this.blocks.set(index, { kind: "server", start: block, json: "", position: this.positions++ });
        else this.blocks.set(index, { kind: "ignored" });
        return [];
    }
  }

  private applyDelta(data: Json): ProviderEvent[] {
    const block = typeof data.index === "number" ? this.blocks.get(data.index) : undefined;
    const delta = data.delta;
    if (block === undefined || !isObject(delta)) throw invalid(`a content_block_delta for a block that was not started: ${preview(data)}`);
    if (block.kind === "ignored") return [];
    if (block.kind === "server") {
      if (delta.type === "input_json_delta") block.json += stringOr(delta.partial_json);
      // The compaction summary streams as `compaction_delta` text; the block goes back with it as `content`.
      if (delta.type === "compaction_delta") block.json += stringOr(delta.content);
      return [];
    }
    if (delta.type === "text_delta" && block.kind === "text") return this.appendText(block, stringOr(delta.text));
    if (delta.type === "thinking_delta" && block.kind === "thinking") {
      block.thinking += stringOr(delta.thinking);
      return delta.thinking ? [{ type: "thinking_delta", index: block.position ?? 0, delta: stringOr(delta.thinking) }] : [];
    }
    if (delta.type === "signature_delta" && block.kind === "thinking") {
      block.signature += stringOr(delta.signature);
      return [];
    }
    if (delta.type === "input_json_delta" && block.kind === "tool_use") {
      const fragment = stringOr(delta.partial_json);
      block.json += fragment;
      return fragment === "" ? [] : [{ type: "tool_call_delta", index: block.position ?? 0, delta: fragment }];
    }
    // citations_delta and delta types added later carry nothing ctxkit models.
    if (!["text_delta", "thinking_delta", "signature_delta", "input_json_delta"].includes(String(delta.type))) return [];
    throw invalid(`a ${String(delta.type)} for a ${block.kind} block: ${preview(data)}`);
  }

  private appendText(block: Extract<BlockState, { kind: "text" }>, text: string): ProviderEvent[] {
    if (text === "") return [];
    block.text += text;
    if (block.position !== undefined) return [{ type: "text_delta", index: block.position, delta: text }];
    block.position = this.positions++;
    return [{ type: "text_start", index: block.position }, { type: "text_delta", index: block.position, delta: text }];
  }

  private stopBlock(data: Json): ProviderEvent[] {
    const block = typeof data.index === "number" ? this.blocks.get(data.index) : undefined;
    if (block === undefined || block.kind === "ignored" || block.kind === "server" || block.position === undefined) return [];
    const index = block.position;
    switch (block.kind) {
      case "text":
        return [{ type: "text_end", index }];
      case "thinking":
      case "redacted_thinking":
        return [{ type: "thinking_end", index }];
      case "tool_use":
        // A tool without parameters streams no input_json_delta at all: its input is `{}`.
        return [{ type: "tool_call_end", index, ...(block.json === "" ? { argumentsText: "{}" } : {}) }];
    }
  }
}

function toPart(block: BlockState): AssistantPart | undefined {
  switch (block.kind) {
    case "text":
      return block.text === "" ? undefined : { type: "text", text: block.text };
    case "thinking":
      return { type: "thinking", thinking: block.thinking, ...(block.signature === "" ? {} : { signature: block.signature }) };
    case "redacted_thinking":
      return { type: "thinking", thinking: "", redactedData: block.data };
    case "tool_use": {
      // A tool without parameters streams no input_json_delta at all: its input is `{}`.
      const argumentsText = block.json === "" ? "{}" : block.json;
      const parsed = safeParseJson(argumentsText);
      return { type: "tool_call", id: block.id, name: block.name, argumentsText, arguments: parsed.success ? parsed.value : undefined };
    }
    case "server":
      return { type: "provider_block", provider: "anthropic", block: serverBlockText(block) };
    case "ignored":
      return undefined;
  }
}

/**
 * The block as the API gave it: its start with `input` replaced by the streamed input when there was
 * one (the start carries `input: {}`), keys in the order they came.
 */
function serverBlockText(block: Extract<BlockState, { kind: "server" }>): string {
  if (block.start.type === "compaction") return JSON.stringify({ ...block.start, content: block.json === "" ? block.start.content : block.json });
  if (block.json === "") return JSON.stringify(block.start);
  const parsed = safeParseJson(block.json);
  return JSON.stringify({ ...block.start, input: parsed.success ? parsed.value : {} });
}


/** An `event: error` after the stream started, e.g. `{"type":"overloaded_error","message":"Overloaded"}`. */
function streamedError(error: Json): CtxkitError {
  const type = typeof error.type === "string" ? error.type : "error";
  const message = typeof error.message === "string" ? error.message : "no message";
  if (isContextOverflow({ body: JSON.stringify(error) })) return new ContextOverflowError(message, error);
  const isRetryable = type === "overloaded_error" || type === "api_error" || type === "rate_limit_error";
  const hint = isRetryable ? " The call can be retried." : "";
  return new ProviderError("provider_http_error", `Anthropic reported an error mid-stream (${type}): ${message}.${hint}`, { isRetryable, cause: error });
}

function invalid(detail: string): CtxkitError {
  return new ProviderError(
    "provider_response_invalid",
    `Anthropic sent ${detail}. The stream does not follow the Messages API streaming format; check the base URL points at an Anthropic-compatible server.`,
  );
}

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function stringOr(value: unknown): string {
  return typeof value === "string" ? value : "";
}

function preview(value: unknown): string {
  return JSON.stringify(value)?.slice(0, 200) ?? String(value);
}
