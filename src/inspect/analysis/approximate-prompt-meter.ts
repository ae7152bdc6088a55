import type { LayerDifference } from "../../context/prefix-guard/index.js";
import { createMessageTokenCache, getTokenCounter, type TokenCounter } from "../../tokens/index.js";
import type { Message, ModelRequest, SystemPrompt, ToolDefinition } from "../../types/index.js";
import { compositionPartOf, emptyComposition } from "./composition.js";
import type { Measurement, PromptMeter, Reuse } from "./prompt-meter.js";

/**
 * Counts prompts as message texts plus the chat format's wrappers (the message token cache), for
 * tokenizers without a public chat template: o200k (OpenAI's hidden format; within a few percent)
 * and the estimator. Each message, system prompt and tool list is counted once.
 */
export function createApproximatePromptMeter(tokenizer: "o200k" | "estimate" | "qwen3", counter: TokenCounter = getTokenCounter(tokenizer)): PromptMeter {
  const cache = createMessageTokenCache(counter);
  const messageTokens = new WeakMap<Message, number>();
  const systemTokens = new WeakMap<SystemPrompt, { system: number; systemStatic: number }>();
  const toolTokens = new WeakMap<readonly ToolDefinition[], number>();
  const countMessage = (message: Message): number => {
    let tokens = messageTokens.get(message);
    if (tokens === undefined) messageTokens.set(message, (tokens = cache.countMessage(message)));
    return tokens;
  };
  const systemOf = (system: SystemPrompt) => {
    let tokens = systemTokens.get(system);
    if (tokens === undefined) {
      const whole = cache.countRequest({ system, tools: [], messages: [], cacheBreakpoints: [], settings: {} });
      const systemStatic = system.sessionText === undefined ? whole : counter.count(system.staticText);
      systemTokens.set(system, (tokens = { system: whole, systemStatic }));
    }
    return tokens;
  };
  const toolsOf = (tools: readonly ToolDefinition[]): number => {
    let tokens = toolTokens.get(tools);
    if (tokens === undefined) {
      tokens = cache.countRequest({ system: { staticText: "" }, tools: [...tools], messages: [], cacheBreakpoints: [], settings: {} });
      toolTokens.set(tools, tokens);
    }
    return tokens;
  };

  return {
    tokenizer,
    description: tokenizer === "o200k" ? "o200k tokens of message texts plus chat-format wrappers (OpenAI's format is not public: within a few %)" : `${tokenizer} counts of message texts plus chat-format wrappers (estimate)`,
    exact: false,
    measure(request: ModelRequest): Measurement {
      const composition = emptyComposition();
      const system = systemOf(request.system);
      composition.system = system.system;
      composition.tools = toolsOf(request.tools);
      const messages = request.messages.map((message) => {
        const tokens = countMessage(message);
        composition[compositionPartOf(message)] += tokens;
        return tokens;
      });
      const tailTokens = request.tail === undefined ? 0 : countMessage(request.tail);
      composition.harness += tailTokens;
      const promptTokens = Object.values(composition).reduce((total, value) => total + value, 0);
      return { request, promptTokens, tailTokens, composition, layerTokens: { systemStatic: system.systemStatic, system: system.system, tools: composition.tools, messages } };
    },
    reuse(previous, _next, difference) {
      return { tokens: reusableTokens(previous, difference, counter) };
    },
    countMessage,
    verify: () => true,
    stats: () => ({ cachedSegments: cache.size, segmentLookups: 0 }),
  };
}

/**
 * The previous prompt's tokens before the first difference: whole layers before it, plus the
 * tokens of the differing layer's text up to the first differing character (capped at the layer).
 */
function reusableTokens(previous: Measurement, difference: LayerDifference | undefined, counter: TokenCounter): Reuse["tokens"] {
  const layers = previous.layerTokens!;
  if (difference === undefined) return previous.promptTokens - previous.tailTokens;
  const within = (layerTokens: number) => Math.min(layerTokens, counter.count(difference.previousText.slice(0, difference.offsetInLayer)));
  switch (difference.layer) {
    case "request":
      return 0;
    case "system_static":
      return within(layers.systemStatic);
    case "system_session":
      return layers.systemStatic + within(layers.system - layers.systemStatic);
    case "tools": {
      const perTool = layers.tools / Math.max(1, previous.request.tools.length);
      return layers.system + Math.round(perTool * difference.index) + within(Math.floor(perTool));
    }
    case "message": {
      let before = layers.system + layers.tools;
      for (let index = 0; index < difference.index; index++) before += layers.messages[index] ?? 0;
      return before + within(layers.messages[difference.index] ?? 0);
    }
    case "tail":
      return previous.promptTokens - previous.tailTokens;
  }
}
