import type { Message } from "../types/message.js";
import type { ModelRequest } from "../types/model-request.js";
import { contentHash } from "./content-hash.js";
import { systemTextOf } from "./to-hf-chat-messages.js";
import { toPythonJson } from "./python-json.js";
import { toHfTools } from "./to-hf-tools.js";
import type { TokenCounter } from "./token-counter.js";

/**
 * Tokens a chat format adds around each message (`<|im_start|>role\n` … `<|im_end|>\n` is 5 in
 * Qwen3; OpenAI documents 3–4) and around each tool call (`<tool_call>\n{"name": …}\n</tool_call>`).
 */
export interface MessageOverhead {
  perMessage: number;
  /** The JSON wrapper of a call: `<tool_call>\n{"name": "…", "arguments": …}\n</tool_call>`. */
  perToolCall: number;
  /** `<tool_response>` tags (Qwen3 wraps tool results in a user turn). */
  perToolResult: number;
  /** `<think>\n` … `\n</think>\n\n` around reasoning. */
  perThinking: number;
  /** The template's fixed text before the tool list (Qwen3: "# Tools\n\nYou may call …"). */
  toolsPreamble: number;
}

// Qwen3's numbers are measured on its template; OpenAI does not publish its internal format, so the
// o200k/cl100k ones reuse them with OpenAI's documented 3 tokens per message + 1 for the role.
const QWEN3_OVERHEAD: MessageOverhead = {
  perMessage: 5,
  perToolCall: 10,
  perToolResult: 4,
  perThinking: 4,
  toolsPreamble: 80,
};
const OVERHEADS: Record<string, MessageOverhead> = {
  qwen3: QWEN3_OVERHEAD,
  o200k: { ...QWEN3_OVERHEAD, perMessage: 4 },
  cl100k: { ...QWEN3_OVERHEAD, perMessage: 4 },
};

export interface MessageTokenCache {
  /** Tokens of one message including its per-message overhead; tokenized once per id and content. */
  countMessage(message: Message): number;
  /**
   * Approximate prompt tokens of a request: system text, tools (canonical JSON, keys sorted), messages
   * and tail, plus constants for the chat format's wrappers. An approximation of the rendered prompt:
   * within 0.2% of `countRenderedPrompt` on τ-bench dialogues with Qwen3, but it counts reasoning
   * that Qwen3's template hides and leaves out the generation prompt (3 tokens). Only the tail is
   * tokenized on every call.
   */
  countRequest(request: ModelRequest): number;
  readonly size: number;
  clear(): void;
}

/**
 * Caches token counts so that a growing trajectory is tokenized incrementally: each message once,
 * keyed by its id and a hash of its content (an id reused for other content is counted again).
 */
export function createMessageTokenCache(counter: TokenCounter, overheads?: MessageOverhead): MessageTokenCache {
  const wrappers = overheads ?? OVERHEADS[counter.name] ?? QWEN3_OVERHEAD;
  const counts = new Map<string, number>();

  const cached = (key: string, texts: readonly string[], extra: number): number => {
    const fullKey = `${key}:${contentHash(texts)}`;
    let tokens = counts.get(fullKey);
    if (tokens === undefined) {
      tokens = texts.reduce((sum, text) => sum + counter.count(text), 0) + extra;
      counts.set(fullKey, tokens);
    }
    return tokens;
  };

  const countMessage = (message: Message): number => {
    const { texts, extra } = textsOf(message, wrappers);
    return cached(`m:${message.meta.id}:${message.role}`, texts, extra);
  };

  return {
    countMessage,
    countRequest(request) {
      const systemText = systemTextOf(request.system);
      let total = systemText === "" ? 0 : cached("system", [systemText], wrappers.perMessage);
      const tools = toHfTools(request.tools).map(toPythonJson);
      if (tools.length > 0) total += cached("tools", tools, wrappers.toolsPreamble);
      for (const message of request.messages) total += countMessage(message);
      if (request.tail !== undefined) total += counter.count(request.tail.content) + wrappers.perMessage;
      return total;
    },
    get size() {
      return counts.size;
    },
    clear() {
      counts.clear();
    },
  };
}

/** The texts of a message as a template prints them, and the tokens of its wrappers. */
function textsOf(message: Message, overheads: MessageOverhead): { texts: string[]; extra: number } {
  if (message.role === "tool") return { texts: [message.content], extra: overheads.perMessage + overheads.perToolResult };
  if (message.role !== "assistant") return { texts: [message.content], extra: overheads.perMessage };
  const texts: string[] = [];
  let extra = overheads.perMessage;
  for (const part of message.content) {
    if (part.type === "text") texts.push(part.text);
    else if (part.type === "thinking") {
      texts.push(part.thinking);
      extra += overheads.perThinking;
    } else if (part.type === "tool_call") {
      // Templates print the parsed arguments again (`tojson`), not the model's own text.
      texts.push(part.name, part.arguments === undefined ? part.argumentsText : toPythonJson(part.arguments));
      extra += overheads.perToolCall;
    }
  }
  return { texts, extra };
}
