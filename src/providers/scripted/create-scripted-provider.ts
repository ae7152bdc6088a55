import { emptyUsage, type AssistantPart, type ModelRequest, type Usage, ProviderError } from "../../types/index.js";
import type { ModelResponse, Provider, ProviderEvent, SerializedRequest } from "../provider.js";
import { safeParseJson } from "../shared/canonical-json.js";
import { abortError } from "../shared/fetch-with-retry.js";
import { serializeCanonicalRequest } from "../shared/serialize-canonical-request.js";
import type { ScriptedTurn } from "./scripted-turn.js";
import { commonPrefixLength } from "../../tokens/common-prefix-tokens.js";

export interface ScriptedProviderOptions {
  /** Turns in order, or a function of the request (and the call number) that returns the next turn. */
  turns: ScriptedTurn[] | ((request: ModelRequest, callIndex: number) => ScriptedTurn);
  name?: string;
  model?: string;
  /** Characters per streamed text delta (default 16). */
  chunkSize?: number;
}

export interface ScriptedProvider extends Provider {
  /** Every request received, in order, for assertions. */
  readonly requests: ModelRequest[];
  /** The serialised body of every request received. */
  readonly bodies: SerializedRequest[];
}

/**
 * A provider whose turns a test or demo writes. It streams like a real one (deltas, tool-call
 * start/delta events, a terminal done/error) and reports usage: prompt tokens estimated at four
 * characters a token, and "cached" tokens for the byte prefix shared with the previous call — an
 * approximation of a real prompt cache, good enough for plumbing; real counts come from real models.
 */
export function createScriptedProvider(options: ScriptedProviderOptions): ScriptedProvider {
  const requests: ModelRequest[] = [];
  const bodies: SerializedRequest[] = [];
  const chunkSize = options.chunkSize ?? 16;

  async function* stream(request: ModelRequest, signal?: AbortSignal): AsyncGenerator<ProviderEvent> {
    const callIndex = requests.length;
    requests.push(request);
    const serialized = serializeCanonicalRequest(request);
    const previous = bodies.at(-1);
    bodies.push(serialized);

    const turn = nextTurn(options.turns, request, callIndex);
    const script = typeof turn === "string" ? { text: turn } : turn;
    const usage: Usage = {
      ...emptyUsage(),
      inputTokens: Math.ceil(serialized.body.length / 4),
      cachedInputTokens: previous ? Math.floor(commonPrefixLength(previous.body, serialized.body) / 4) : 0,
      outputTokens: Math.ceil(((script.text ?? "").length + (script.thinking ?? "").length) / 4),
      ...script.usage,
    };
    const content: AssistantPart[] = [];
    const partial = (): ModelResponse => ({ content: [...content], stopReason: "error" });
    const wait = async (): Promise<boolean> => {
      if (script.delayMs) await delay(script.delayMs, signal);
      return signal?.aborted ?? false;
    };

    yield { type: "start" };
    if (script.thinking !== undefined) {
      if (await wait()) return yield { type: "error", error: abortError(), partial: partial() };
      const index = content.length;
      yield { type: "thinking_start", index };
      yield { type: "thinking_delta", index, delta: script.thinking };
      content.push({ type: "thinking", thinking: script.thinking, ...(script.thinkingSignature ? { signature: script.thinkingSignature } : {}) });
      yield { type: "thinking_end", index };
    }
    if (script.text !== undefined && script.text !== "") {
      const textPart = { type: "text" as const, text: "" };
      const index = content.length;
      content.push(textPart);
      yield { type: "text_start", index };
      for (let offset = 0; offset < script.text.length; offset += chunkSize) {
        if (await wait()) return yield { type: "error", error: abortError(), partial: partial() };
        const delta = script.text.slice(offset, offset + chunkSize);
        textPart.text += delta;
        yield { type: "text_delta", index, delta };
      }
      yield { type: "text_end", index };
    }
    if (script.error) return yield { type: "error", error: script.error, partial: partial(), usage };
    const toolCalls = script.toolCalls ?? [];
    for (const [position, call] of toolCalls.entries()) {
      if (await wait()) return yield { type: "error", error: abortError(), partial: partial() };
      const id = call.id ?? `call_${callIndex}_${position}`;
      const argumentsText = call.argumentsText ?? JSON.stringify(call.arguments ?? {});
      const index = content.length;
      yield { type: "tool_call_start", index, id, name: call.name };
      yield { type: "tool_call_delta", index, delta: argumentsText };
      const parsed = safeParseJson(argumentsText);
      content.push({ type: "tool_call", id, name: call.name, argumentsText, arguments: parsed.success ? parsed.value : undefined });
      yield { type: "tool_call_end", index };
    }
    const stopReason = script.stopReason ?? (toolCalls.length > 0 ? "tool_calls" : "stop");
    yield { type: "done", response: { content, stopReason }, usage };
  }

  return {
    specificationVersion: "v1",
    name: options.name ?? "scripted",
    model: options.model ?? "scripted-model",
    requests,
    bodies,
    stream,
    serialize: serializeCanonicalRequest,
  };
}

function nextTurn(turns: ScriptedProviderOptions["turns"], request: ModelRequest, callIndex: number): ScriptedTurn {
  if (typeof turns === "function") return turns(request, callIndex);
  const turn = turns[callIndex];
  if (turn === undefined) {
    return {
      error: new ProviderError(
        "provider_response_invalid",
        `The scripted provider has ${turns.length} turns but was called ${callIndex + 1} times. Add more turns to the script.`,
      ),
    };
  }
  return turn;
}


function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => { clearTimeout(timer); resolve(); }, { once: true });
  });
}
