import { randomUUID } from "node:crypto";
import type { AssistantPart } from "../../types/message.js";
import { safeParseJson } from "../shared/canonical-json.js";
import type { ProviderEvent } from "../provider.js";
import { createQwen3OutputParser, type Qwen3OutputEvent } from "./parse-qwen3-output.js";

export interface LlamaResponseBuilder {
  /** The whole output detokenized so far; returns the events for what is new. */
  push(outputText: string): Generator<ProviderEvent>;
  end(): Generator<ProviderEvent>;
  content(): AssistantPart[];
  thinkingText(): string;
}

/**
 * Turns the growing output text into stream events and the final content parts. The output is
 * detokenized whole each time because a token can end inside a UTF-8 character: text is only taken
 * up to a complete character (no trailing U+FFFD).
 */
export function createLlamaResponseBuilder(): LlamaResponseBuilder {
  const parser = createQwen3OutputParser();
  const parts: AssistantPart[] = [];
  let consumed = 0;
  let toolCallCount = 0;
  let ended = false;

  function* toEvents(events: Qwen3OutputEvent[]): Generator<ProviderEvent> {
    for (const event of events) {
      if (event.type === "tool_call") {
        const call = toToolCallPart(event.text, toolCallCount);
        if (call === undefined) {
          yield* appendText("text", `<tool_call>\n${event.text}\n</tool_call>`);
          continue;
        }
        parts.push(call);
        yield* toolCallEvents(call, toolCallCount, parts.length - 1);
        toolCallCount += 1;
      } else {
        yield* appendText(event.type, event.delta);
      }
    }
  }

  function* appendText(kind: "text" | "thinking", delta: string): Generator<ProviderEvent> {
    const last = parts.at(-1);
    if (kind === "text" && last?.type === "text") last.text += delta;
    else if (kind === "thinking" && last?.type === "thinking") last.thinking += delta;
    else parts.push(kind === "text" ? { type: "text", text: delta } : { type: "thinking", thinking: delta });
    yield deltaEvent(kind, delta, parts.length - 1);
  }

  return {
    *push(outputText) {
      let complete = outputText;
      while (complete.endsWith("\uFFFD")) complete = complete.slice(0, -1);
      if (complete.length <= consumed) return;
      const fresh = complete.slice(consumed);
      consumed = complete.length;
      yield* toEvents(parser.push(fresh));
    },
    *end() {
      if (ended) return;
      ended = true;
      yield* toEvents(parser.end());
    },
    content: () => parts.map((part) => ({ ...part })),
    thinkingText: () => parts.map((part) => (part.type === "thinking" ? part.thinking : "")).join(""),
  };
}

/**
 * The one place events are made. `index` is the part's position in the final `response.content`
 * (the content-block index the stream contract is gaining); tool-call events keep their own
 * `index`, the call's ordinal, as the current contract defines it.
 */
function deltaEvent(kind: "text" | "thinking", delta: string, index: number): ProviderEvent {
  const event = { type: kind === "text" ? ("text_delta" as const) : ("thinking_delta" as const), delta, index };
  return event;
}

function* toolCallEvents(call: Extract<AssistantPart, { type: "tool_call" }>, ordinal: number, _contentIndex: number): Generator<ProviderEvent> {
  yield { type: "tool_call_start", index: ordinal, id: call.id, name: call.name };
  yield { type: "tool_call_delta", index: ordinal, delta: call.argumentsText };
}

/** Qwen3's call JSON, `{"name": …, "arguments": {…}}`; anything else stays text for the model to see. */
function toToolCallPart(text: string, ordinal: number): Extract<AssistantPart, { type: "tool_call" }> | undefined {
  const parsed = safeParseJson(text);
  if (!parsed.success) return undefined;
  const value = parsed.value as { name?: unknown; arguments?: unknown };
  if (value === null || typeof value !== "object" || typeof value.name !== "string") return undefined;
  const argumentsValue = value.arguments ?? {};
  return { type: "tool_call", id: `call_${ordinal}_${randomUUID().slice(0, 8)}`, name: value.name, argumentsText: rawArgumentsText(text, argumentsValue), arguments: argumentsValue };
}

/** The arguments as the model wrote them: the text after `"arguments":` up to the object's closing brace. */
function rawArgumentsText(text: string, parsedArguments: unknown): string {
  const match = /"arguments"\s*:\s*/.exec(text);
  const end = text.lastIndexOf("}");
  if (match !== null && end > match.index) {
    const raw = text.slice(match.index + match[0].length, end).trim();
    const reparsed = safeParseJson(raw);
    if (reparsed.success && JSON.stringify(reparsed.value) === JSON.stringify(parsedArguments)) return raw;
  }
  return JSON.stringify(parsedArguments);
}
