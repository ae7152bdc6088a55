import type { AssistantPart, ThinkingPart, ToolCallPart } from "../../types/index.js";
import type { ModelResponse, ProviderEvent } from "../provider.js";
import { safeParseJson } from "../shared/canonical-json.js";
import { mapOpenAIFinishReason } from "./map-openai-finish-reason.js";
import { ReasoningDetailsAccumulator } from "./reasoning-details-accumulator.js";
import type { OpenAIChunk, OpenAIToolCallFragment } from "./normalize-openai-chunk.js";

interface PendingToolCall {
  /** This call's key in `toolCalls`: the wire index, unless a second call reused it. */
  key: number;
  id?: string;
  /** The id the server sent (not a fallback), which tells a new call at a reused index apart. */
  wireId?: string;
  name?: string;
  argumentsText: string;
  /** Whether `tool_call_start` was emitted (it needs a name; arguments before it are held back). */
  started: boolean;
}

/** A content block of the response, in the order blocks first appeared on the stream. */
type Block = { kind: "thinking" } | { kind: "text" } | { kind: "tool_call"; toolIndex: number };

/**
 * Assembles one assistant response from normalised chunks and says which events each chunk
 * produces. Parallel tool calls arrive interleaved by their wire `index`, with the id and name
 * usually only in the first fragment of each index and the arguments split over many fragments.
 * Each content block (thinking, text, each tool call) gets its block index when it first appears,
 * and `response()` lists the parts in that same order, so event indexes are final positions. The
 * wire has no block ends: `finish()` ends every block when the stream is done.
 *
 * A fragment with a new id at a wire index already in use starts a new call (some servers number
 * every call 0): merging would glue two calls' arguments together and lose the second call.
 */
export class OpenAIResponseAccumulator {
  private thinking = "";
  private text = "";
  private readonly reasoningDetails = new ReasoningDetailsAccumulator();
  /** Every call, by its key. */
  private readonly toolCalls = new Map<number, PendingToolCall>();
  /** The call each wire index currently feeds. */
  private readonly callByWireIndex = new Map<number, PendingToolCall>();
  private readonly blocks: Block[] = [];
  private finishReason: string | undefined;
  private responseId: string | undefined;
  private responseModel: string | undefined;
  /** The last `usage` object the server sent (raw; see convert-openai-usage.ts). */
  usage: unknown;
  /** The last llama-server `timings` object (raw), where its prompt-cache hits are reported. */
  timings: unknown;

  get hasFinishReason(): boolean {
    return this.finishReason !== undefined;
  }

  apply(chunk: OpenAIChunk): ProviderEvent[] {
    const events: ProviderEvent[] = [];
    if (chunk.usage !== undefined) this.usage = chunk.usage;
    if (chunk.id !== undefined) this.responseId ??= chunk.id;
    if (chunk.model !== undefined) this.responseModel ??= chunk.model;
    if (chunk.timings !== undefined) this.timings = chunk.timings;
    if (chunk.finishReason !== undefined) this.finishReason = chunk.finishReason;
    if (chunk.reasoning) {
      this.thinking += chunk.reasoning;
      events.push(...this.openBlock({ kind: "thinking" }), { type: "thinking_delta", index: this.indexOf("thinking"), delta: chunk.reasoning });
    }
    if (chunk.text) {
      this.text += chunk.text;
      events.push(...this.openBlock({ kind: "text" }), { type: "text_delta", index: this.indexOf("text"), delta: chunk.text });
    }
    if (chunk.reasoningDetails !== undefined) {
      this.reasoningDetails.apply(chunk.reasoningDetails);
      events.push(...this.openBlock({ kind: "thinking" }));
    }
    for (const fragment of chunk.toolCalls) events.push(...this.applyToolCall(fragment));
    return events;
  }

  /** The end events of every block, in block order; call once, when the stream is done. */
  finish(): ProviderEvent[] {
    return this.blocks.map((block, index): ProviderEvent => (block.kind === "tool_call" ? { type: "tool_call_end", index } : { type: `${block.kind}_end`, index }));
  }

  private indexOf(kind: Block["kind"], toolIndex?: number): number {
    return this.blocks.findIndex((block) => block.kind === kind && (block.kind !== "tool_call" || block.toolIndex === toolIndex));
  }

  private openBlock(block: Block): ProviderEvent[] {
    if (block.kind !== "tool_call" && this.indexOf(block.kind) !== -1) return [];
    this.blocks.push(block);
    return block.kind === "tool_call" ? [] : [{ type: `${block.kind}_start`, index: this.blocks.length - 1 }];
  }

  private applyToolCall(fragment: OpenAIToolCallFragment): ProviderEvent[] {
    const call = this.callFor(fragment);
    const toolIndex = call.key;
    call.wireId ??= fragment.id;
    if (!call.started) {
      call.id ??= fragment.id;
      call.name ??= fragment.name;
    }
    const delta = fragment.argumentsText ?? "";
    call.argumentsText += delta;
    if (call.started) return delta === "" ? [] : [{ type: "tool_call_delta", index: this.indexOf("tool_call", toolIndex), delta }];
    if (call.name === undefined) return [];
    call.started = true;
    call.id ??= fallbackId(toolIndex);
    this.openBlock({ kind: "tool_call", toolIndex });
    const index = this.blocks.length - 1;
    const events: ProviderEvent[] = [{ type: "tool_call_start", index, id: call.id, name: call.name }];
    // Arguments that came before the name (or with it) follow the start as one delta.
    if (call.argumentsText !== "") events.push({ type: "tool_call_delta", index, delta: call.argumentsText });
    return events;
  }

  private callFor(fragment: OpenAIToolCallFragment): PendingToolCall {
    const current = this.callByWireIndex.get(fragment.index);
    if (current !== undefined && !startsNewCall(current, fragment)) return current;
    const key = this.toolCalls.has(fragment.index) ? Math.max(...this.toolCalls.keys()) + 1 : fragment.index;
    const call: PendingToolCall = { key, argumentsText: "", started: false };
    this.toolCalls.set(key, call);
    this.callByWireIndex.set(fragment.index, call);
    return call;
  }

  /** The response so far, its parts in the order their blocks started. Also the partial on errors. */
  response(): ModelResponse {
    const content: AssistantPart[] = [];
    for (const block of this.blocks) {
      if (block.kind === "thinking") content.push(this.thinkingPart());
      else if (block.kind === "text") content.push({ type: "text", text: this.text });
      else {
        const call = this.toolCalls.get(block.toolIndex);
        if (call?.name !== undefined) content.push(toolCallPart(block.toolIndex, call, call.name));
      }
    }
    const hasToolCalls = content.some((part) => part.type === "tool_call");
    return {
      content,
      ...mapOpenAIFinishReason(this.finishReason, hasToolCalls),
      ...(this.responseId !== undefined ? { id: this.responseId } : {}),
      ...(this.responseModel !== undefined ? { model: this.responseModel } : {}),
    };
  }

  /** OpenRouter's `reasoning_details` (signatures, encrypted reasoning) ride along byte-exact, to be sent back. */
  private thinkingPart(): ThinkingPart {
    const part: ThinkingPart = { type: "thinking", thinking: this.thinking };
    const details = this.reasoningDetails.details();
    if (details.length > 0) part.providerDetails = JSON.stringify(details);
    return part;
  }
}

function toolCallPart(index: number, call: PendingToolCall, name: string): ToolCallPart {
  // Invalid JSON is kept as text and never repaired: the loop reports it to the model, which then
  // sees exactly what it wrote. An empty string is what several servers (vLLM, llama.cpp) send for a
  // call without parameters; it means "no arguments", as Anthropic's empty input does.
  const parsed = call.argumentsText.trim() === "" ? { success: true as const, value: {} } : safeParseJson(call.argumentsText);
  return {
    type: "tool_call",
    id: call.id ?? fallbackId(index),
    name,
    argumentsText: call.argumentsText,
    arguments: parsed.success ? parsed.value : undefined,
  };
}

/**
 * Whether a fragment at a wire index already in use is another call. A new id says so. Without ids
 * (older Ollama builds send each call whole, with no `index` and no `id`, so every call reads as
 * index 0) a second name does: a different one, or any name once the current call's arguments are
 * a whole JSON object and the fragment opens another. Servers that repeat the name on every
 * fragment send it mid-object, which stays in the call.
 */
function startsNewCall(current: PendingToolCall, fragment: OpenAIToolCallFragment): boolean {
  if (fragment.id !== undefined && current.wireId !== undefined) return fragment.id !== current.wireId;
  if (fragment.name === undefined || current.name === undefined) return false;
  if (fragment.name !== current.name) return true;
  return (fragment.argumentsText ?? "").trimStart().startsWith("{") && isWholeObject(current.argumentsText);
}

function isWholeObject(text: string): boolean {
  const parsed = safeParseJson(text);
  return parsed.success && parsed.value !== null && typeof parsed.value === "object" && !Array.isArray(parsed.value);
}

/** For servers that send no tool call id (seen with some local servers); stable within a response. */
function fallbackId(index: number): string {
  return `call_${index}`;
}
