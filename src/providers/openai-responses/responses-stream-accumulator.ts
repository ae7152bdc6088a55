import { ContextOverflowError, CtxkitError, ProviderError, type AssistantPart, type StopReason, type Usage } from "../../types/index.js";
import type { ModelResponse, ProviderEvent } from "../provider.js";
import { isContextOverflow } from "../shared/context-overflow.js";
import { safeParseJson } from "../shared/canonical-json.js";
import { convertResponsesUsage } from "./convert-responses-usage.js";
import type { ResponsesJson, ResponsesUsage } from "./responses-wire-types.js";

type Block =
  | { kind: "text"; index: number; text: string; open: boolean }
  | { kind: "reasoning"; index: number; thinking: string; item?: ResponsesJson; open: boolean }
  | { kind: "call"; index: number; callId: string; name: string; argumentsText: string; open: boolean }
  | { kind: "item"; index: number; item: ResponsesJson };

/**
 * Folds Responses streaming events (https://platform.openai.com/docs/api-reference/responses-streaming)
 * into provider events and the final response. Output items become parts in stream order: `message`
 * text parts → text, `reasoning` → thinking (its summary as the text, the whole item kept as
 * `providerDetails` to send back), `function_call` → a tool call, and every other item the API
 * produced on its side (`tool_search_call`, `tool_search_output`, `compaction`, web search…) → a
 * `provider_block` kept as its JSON text, since the next request must carry it unchanged.
 */
export class ResponsesStreamAccumulator {
  private readonly blocks = new Map<string, Block>();
  private nextIndex = 0;
  private finalStatus: { status: string; reason?: string } | undefined;
  private finalUsage: Usage | undefined;
  private responseId: string | undefined;
  private responseModel: string | undefined;
  private completedOutput: unknown[] = [];

  get isFinished(): boolean {
    return this.finalStatus !== undefined;
  }

  usage(): Usage | undefined {
    return this.finalUsage;
  }

  /** Applies one event (parsed JSON); throws a typed error for an `error` or `response.failed` event. */
  apply(event: unknown): ProviderEvent[] {
    if (!isObject(event) || typeof event.type !== "string") throw invalid(`an event without a type: ${preview(event)}`);
    const outputIndex = typeof event.output_index === "number" ? event.output_index : -1;
    switch (event.type) {
      case "response.output_item.added":
        return isObject(event.item) ? this.itemAdded(outputIndex, event.item) : [];
      case "response.output_text.delta":
      case "response.refusal.delta":
        return this.textDelta(`${outputIndex}:${String(event.content_index ?? 0)}`, stringOr(event.delta));
      case "response.reasoning_summary_part.added": {
        const block = this.blocks.get(String(outputIndex));
        // Summary parts are separate paragraphs of one reasoning item.
        if (block?.kind !== "reasoning" || event.summary_index === 0 || block.thinking === "") return [];
        return this.thinkingDelta(block, "\n\n");
      }
      case "response.reasoning_summary_text.delta":
      case "response.reasoning_text.delta": {
        const block = this.blocks.get(String(outputIndex));
        return block?.kind === "reasoning" ? this.thinkingDelta(block, stringOr(event.delta)) : [];
      }
      case "response.function_call_arguments.delta": {
        const block = this.blocks.get(String(outputIndex));
        if (block?.kind !== "call") return [];
        const delta = stringOr(event.delta);
        block.argumentsText += delta;
        return delta === "" ? [] : [{ type: "tool_call_delta", index: block.index, delta }];
      }
      case "response.output_item.done":
        return isObject(event.item) ? this.itemDone(outputIndex, event.item) : [];
      case "response.completed":
      case "response.incomplete":
        return this.finish(event.response);
      case "response.failed": {
        const response = isObject(event.response) ? event.response : {};
        // A failed response can still carry what was billed; the terminal error event keeps it.
        if (isObject(response.usage)) this.finalUsage = convertResponsesUsage(response.usage as ResponsesUsage);
        throw streamedError(isObject(response.error) ? response.error : { code: "response_failed", message: "the response failed without an error object" });
      }
      case "error":
        throw streamedError(isObject(event.error) ? event.error : event);
      default:
        return [];
    }
  }

  response(stopReason?: StopReason): ModelResponse {
    const content: AssistantPart[] = [];
    for (const block of [...this.blocks.values()].sort((left, right) => left.index - right.index)) {
      const part = toPart(block, this.completedOutput);
      if (part !== undefined) content.push(part);
    }
    const status = this.finalStatus;
    // An incomplete response's reason wins over its calls: a call cut at max_output_tokens has
    // arguments that end mid-JSON, and the loop tells the model so only for a length stop.
    const fromStatus = stopOf(status);
    const unified = stopReason ?? (fromStatus === "stop" && content.some((part) => part.type === "tool_call") ? "tool_calls" : fromStatus);
    return {
      content,
      stopReason: unified,
      ...(status ? { rawStopReason: status.reason ?? status.status } : {}),
      ...(this.responseId === undefined ? {} : { id: this.responseId }),
      ...(this.responseModel === undefined ? {} : { model: this.responseModel }),
    };
  }

  private itemAdded(outputIndex: number, item: ResponsesJson): ProviderEvent[] {
    const key = String(outputIndex);
    switch (item.type) {
      case "message":
        return [];
      case "reasoning": {
        const block: Block = { kind: "reasoning", index: this.nextIndex++, thinking: "", open: true };
        this.blocks.set(key, block);
        return [{ type: "thinking_start", index: block.index }];
      }
      case "function_call": {
        const block: Block = { kind: "call", index: this.nextIndex++, callId: stringOr(item.call_id), name: stringOr(item.name), argumentsText: "", open: true };
        this.blocks.set(key, block);
        return [{ type: "tool_call_start", index: block.index, id: block.callId, name: block.name }];
      }
      default:
        this.blocks.set(key, { kind: "item", index: this.nextIndex++, item });
        return [];
    }
  }

  private textDelta(key: string, delta: string): ProviderEvent[] {
    if (delta === "") return [];
    const events: ProviderEvent[] = [];
    let block = this.blocks.get(key);
    if (block === undefined) {
      block = { kind: "text", index: this.nextIndex++, text: "", open: true };
      this.blocks.set(key, block);
      events.push({ type: "text_start", index: block.index });
    }
    if (block.kind !== "text") return [];
    block.text += delta;
    events.push({ type: "text_delta", index: block.index, delta });
    return events;
  }

  private thinkingDelta(block: Extract<Block, { kind: "reasoning" }>, delta: string): ProviderEvent[] {
    if (delta === "") return [];
    block.thinking += delta;
    return [{ type: "thinking_delta", index: block.index, delta }];
  }

  private itemDone(outputIndex: number, item: ResponsesJson): ProviderEvent[] {
    const key = String(outputIndex);
    const block = this.blocks.get(key);
    if (item.type === "message") return this.closeTexts(outputIndex);
    if (block === undefined) {
      // A done item without its added event: keep it all the same.
      this.itemAdded(outputIndex, item);
      return this.itemDone(outputIndex, item);
    }
    switch (block.kind) {
      case "reasoning":
        block.item = item;
        if (block.thinking === "") block.thinking = summaryText(item);
        block.open = false;
        return [{ type: "thinking_end", index: block.index }];
      case "call": {
        if (typeof item.arguments === "string") block.argumentsText = item.arguments;
        block.open = false;
        return [{ type: "tool_call_end", index: block.index, argumentsText: argumentsOf(block.argumentsText) }];
      }
      case "item":
        block.item = item;
        return [];
      case "text":
        return [];
    }
  }

  private closeTexts(outputIndex: number): ProviderEvent[] {
    const events: ProviderEvent[] = [];
    for (const [key, block] of this.blocks) {
      if (block.kind === "text" && block.open && key.startsWith(`${outputIndex}:`)) {
        block.open = false;
        events.push({ type: "text_end", index: block.index });
      }
    }
    return events;
  }

  private finish(response: unknown): ProviderEvent[] {
    const body = isObject(response) ? response : {};
    // The response's id and the model that answered, for traces.
    if (typeof body.id === "string" && body.id !== "") this.responseId = body.id.slice(0, 200);
    if (typeof body.model === "string" && body.model !== "") this.responseModel = body.model.slice(0, 200);
    const details = isObject(body.incomplete_details) ? body.incomplete_details : undefined;
    this.finalStatus = { status: stringOr(body.status) || "completed", ...(typeof details?.reason === "string" ? { reason: details.reason } : {}) };
    this.finalUsage = convertResponsesUsage(isObject(body.usage) ? (body.usage as ResponsesUsage) : undefined);
    this.completedOutput = Array.isArray(body.output) ? body.output : [];
    return [];
  }
}

function toPart(block: Block, completedOutput: unknown[]): AssistantPart | undefined {
  switch (block.kind) {
    case "text":
      return block.text === "" ? undefined : { type: "text", text: block.text };
    case "reasoning": {
      const item = block.item ?? firstItemOf(completedOutput, "reasoning");
      return { type: "thinking", thinking: block.thinking, ...(item === undefined ? {} : { providerDetails: JSON.stringify(item) }) };
    }
    case "call": {
      const argumentsText = argumentsOf(block.argumentsText);
      const parsed = safeParseJson(argumentsText);
      return { type: "tool_call", id: block.callId, name: block.name, argumentsText, arguments: parsed.success ? parsed.value : undefined };
    }
    case "item":
      return { type: "provider_block", provider: "openai", block: JSON.stringify(block.item) };
  }
}

/** Only when `output_item.done` never came for a reasoning item: the completed response's copy. */
function firstItemOf(output: unknown[], type: string): ResponsesJson | undefined {
  const found = output.find((item) => isObject(item) && item.type === type);
  return isObject(found) ? found : undefined;
}

/** A function without parameters may stream no argument text at all: its arguments are `{}`. */
function argumentsOf(text: string): string {
  return text === "" ? "{}" : text;
}

function summaryText(item: ResponsesJson): string {
  const summary = Array.isArray(item.summary) ? item.summary : [];
  return summary.map((part) => (isObject(part) ? stringOr(part.text) : "")).filter((text) => text !== "").join("\n\n");
}

function stopOf(status: { status: string; reason?: string } | undefined): StopReason {
  if (status?.status !== "incomplete") return "stop";
  if (status.reason === "max_output_tokens") return "length";
  if (status.reason === "content_filter") return "content_filter";
  return "stop";
}

/**
 * An `error` event, e.g. `{"type":"error","code":"insufficient_quota","message":"You exceeded your
 * current quota…"}` (the recorded stream nests it under `error`). Overflow is recognised by its code.
 */
function streamedError(error: ResponsesJson): CtxkitError {
  const code = stringOr(error.code) || stringOr(error.type) || "error";
  const message = stringOr(error.message) || "no message";
  if (isContextOverflow({ body: JSON.stringify({ error }) })) return new ContextOverflowError(message, error);
  const isRetryable = code === "server_error" || code === "rate_limit_exceeded" || code === "server_is_overloaded";
  const hint = isRetryable ? " The call can be retried." : "";
  return new ProviderError("provider_http_error", `OpenAI Responses reported an error mid-stream (${code}): ${message}.${hint}`, { isRetryable, cause: error });
}

function invalid(detail: string): CtxkitError {
  return new ProviderError(
    "provider_response_invalid",
    `OpenAI Responses sent ${detail}. The stream does not follow the Responses streaming format; check the base URL points at a Responses API server.`,
  );
}

function isObject(value: unknown): value is ResponsesJson {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function stringOr(value: unknown): string {
  return typeof value === "string" ? value : "";
}

function preview(value: unknown): string {
  return JSON.stringify(value)?.slice(0, 200) ?? String(value);
}
