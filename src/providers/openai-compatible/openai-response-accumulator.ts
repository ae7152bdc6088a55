import type { AssistantPart, ThinkingPart, ToolCallPart } from "../../types/index.js";
import type { ModelResponse, ProviderEvent } from "../provider.js";
import { safeParseJson } from "../shared/canonical-json.js";
import { mapOpenAIFinishReason } from "./map-openai-finish-reason.js";
import { ReasoningDetailsAccumulator } from "./reasoning-details-accumulator.js";
import type { OpenAIChunk, OpenAIToolCallFragment } from "./normalize-openai-chunk.js";

interface PendingToolCall {
  /** The index events and the response use; the wire index unless a second call reused it. */
  eventIndex: number;
  id?: string;
  /** The id the server sent (not a fallback), which tells a new call at a reused index apart. */
  wireId?: string;
  name?: string;
  argumentsText: string;
  /** Whether `tool_call_start` was emitted (it needs a name; arguments before it are held back). */
  started: boolean;
}

/**
 * Assembles one assistant response from normalised chunks and says which delta events each chunk
 * produces. Parallel tool calls arrive interleaved by `index`, with the id and name usually only
 * in the first fragment of each index and the arguments split over many fragments.
 *
 * A fragment with a new id at an index already in use starts a new call (some servers number every
 * call 0): merging would glue two calls' arguments together and lose the second call. The new call
 * gets the next free event index, so events and the response keep the calls apart.
 */
export class OpenAIResponseAccumulator {
  private thinking = "";
  private readonly reasoningDetails = new ReasoningDetailsAccumulator();
  private text = "";
  /** Every call, keyed by event index. */
  private readonly toolCalls = new Map<number, PendingToolCall>();
  /** The call each wire index currently feeds. */
  private readonly callByWireIndex = new Map<number, PendingToolCall>();
  private finishReason: string | undefined;
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
    if (chunk.timings !== undefined) this.timings = chunk.timings;
    if (chunk.finishReason !== undefined) this.finishReason = chunk.finishReason;
    if (chunk.reasoning) {
      this.thinking += chunk.reasoning;
      events.push({ type: "thinking_delta", delta: chunk.reasoning });
    }
    if (chunk.text) {
      this.text += chunk.text;
      events.push({ type: "text_delta", delta: chunk.text });
    }
    if (chunk.reasoningDetails !== undefined) this.reasoningDetails.apply(chunk.reasoningDetails);
    for (const fragment of chunk.toolCalls) events.push(...this.applyToolCall(fragment));
    return events;
  }

  private applyToolCall(fragment: OpenAIToolCallFragment): ProviderEvent[] {
    const call = this.callFor(fragment);
    const index = call.eventIndex;
    call.wireId ??= fragment.id;
    if (!call.started) {
      call.id ??= fragment.id;
      call.name ??= fragment.name;
    }
    const delta = fragment.argumentsText ?? "";
    call.argumentsText += delta;
    if (call.started) return delta === "" ? [] : [{ type: "tool_call_delta", index, delta }];
    if (call.name === undefined) return [];
    call.started = true;
    call.id ??= fallbackId(index);
    const events: ProviderEvent[] = [{ type: "tool_call_start", index, id: call.id, name: call.name }];
    // Arguments that came before the name (or with it) follow the start as one delta.
    if (call.argumentsText !== "") events.push({ type: "tool_call_delta", index, delta: call.argumentsText });
    return events;
  }

  private callFor(fragment: OpenAIToolCallFragment): PendingToolCall {
    const current = this.callByWireIndex.get(fragment.index);
    const isNewCall =
      current === undefined || (fragment.id !== undefined && current.wireId !== undefined && fragment.id !== current.wireId);
    if (!isNewCall) return current;
    const eventIndex = this.toolCalls.has(fragment.index) ? Math.max(...this.toolCalls.keys()) + 1 : fragment.index;
    const call: PendingToolCall = { eventIndex, argumentsText: "", started: false };
    this.toolCalls.set(eventIndex, call);
    this.callByWireIndex.set(fragment.index, call);
    return call;
  }

  /** The response so far: thinking, then text, then tool calls by index. Also the partial on errors. */
  response(): ModelResponse {
    const content: AssistantPart[] = [];
    const details = this.reasoningDetails.details();
    if (this.thinking !== "" || details.length > 0) {
      const part: ThinkingPart = { type: "thinking", thinking: this.thinking };
      if (details.length > 0) part.providerDetails = JSON.stringify(details);
      content.push(part);
    }
    if (this.text !== "") content.push({ type: "text", text: this.text });
    const indexes = [...this.toolCalls.keys()].sort((left, right) => left - right);
    for (const index of indexes) {
      const call = this.toolCalls.get(index);
      if (call?.name !== undefined) content.push(toolCallPart(index, call, call.name));
    }
    const hasToolCalls = content.some((part) => part.type === "tool_call");
    return { content, ...mapOpenAIFinishReason(this.finishReason, hasToolCalls) };
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

/** For servers that send no tool call id (seen with some local servers); stable within a response. */
function fallbackId(index: number): string {
  return `call_${index}`;
}
