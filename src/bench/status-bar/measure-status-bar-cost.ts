import type { StatusBarMode } from "../../context/status-bar/status-bar-settings.js";
import { visibleText } from "../../context/prefix-guard/request-layers.js";
import type { ImportedTranscript } from "../../inspect/imported-transcript.js";
import type { ModelPricing } from "../../tokens/pricing.js";
import type { TokenCounter } from "../../tokens/token-counter.js";
import type { Message } from "../../types/index.js";
import { simulateStatusBarModes, type SimulatedCall } from "./simulate-status-bar-modes.js";

export const statusBarModes = ["replace", "append", "auto"] as const satisfies readonly StatusBarMode[];

/**
 * What the prompt cache keeps between calls. `kv`: the previous request and the reply generated
 * after it (vLLM, llama.cpp slot reuse) — the seed's model, where replacing the status loses the
 * reply's cache. `prompt`: only the previous request (OpenAI, Anthropic, DeepSeek prompt caches).
 */
export const cacheModels = ["kv", "prompt"] as const;
export type CacheModel = (typeof cacheModels)[number];

export interface ModeCost {
  promptTokens: number;
  cachedTokens: number;
  /** Prompt-side USD: uncached tokens at the input price, cached at the cache-read price. */
  inputCost: number;
}

export interface StatusBarCostRow {
  id: string;
  format: string;
  model: string;
  calls: number;
  /** α of the model's prices. */
  alpha: number;
  /** Mean tokens of the status message (S). */
  statusTokens: number;
  /** Mean tokens appended between calls (R). */
  appendedTokens: number;
  /** `auto`'s choices over the transcript's runs. */
  /** `auto`'s choices per cache model (it knows whether the cache keeps replies, as the CLI does per vendor). */
  autoDecisions: Record<CacheModel, { append: number; replace: number }>;
  costs: Record<CacheModel, Record<(typeof statusBarModes)[number], ModeCost>>;
}

/**
 * Tokens and prompt cost of one recorded run under replace, append and auto, for both cache models.
 * Cached tokens are the longest run of leading messages identical to what the cache holds (message
 * granularity: a partly matching message counts as a miss). Counts come from `counter`.
 */
export async function measureStatusBarCost(transcript: ImportedTranscript, model: string, pricing: ModelPricing, counter: TokenCounter): Promise<StatusBarCostRow> {
  const alpha = pricing.input > 0 ? pricing.cacheRead / pricing.input : 0;
  const tokens = tokenCache(counter);
  const costs = { kv: {}, prompt: {} } as StatusBarCostRow["costs"];
  let statusTokens = 0;
  let appendedTokens = 0;
  const autoDecisions = { kv: { append: 0, replace: 0 }, prompt: { append: 0, replace: 0 } };
  for (const mode of statusBarModes) {
    if (mode === "auto") {
      for (const cacheModel of cacheModels) {
        const run = await simulateStatusBarModes(transcript, mode, alpha, cacheModel === "kv");
        costs[cacheModel][mode] = costOf(run.calls, cacheModel, pricing, tokens);
        autoDecisions[cacheModel] = {
          append: run.decisions.filter((decision) => decision.mode === "append").length,
          replace: run.decisions.filter((decision) => decision.mode === "replace").length,
        };
      }
      continue;
    }
    const run = await simulateStatusBarModes(transcript, mode, alpha);
    for (const cacheModel of cacheModels) costs[cacheModel][mode] = costOf(run.calls, cacheModel, pricing, tokens);
    if (mode === "replace") {
      statusTokens = mean(run.calls.map((call) => tokens(call.request.at(-1)!)));
      appendedTokens = mean(run.calls.slice(1).map((call, index) => sum(call.request.slice(run.calls[index]!.request.length - 1, -1).map(tokens))));
    }
  }
  return { id: transcript.id, format: transcript.format, model, calls: transcript.calls.length, alpha, statusTokens, appendedTokens, autoDecisions, costs };
}

function costOf(calls: SimulatedCall[], cacheModel: CacheModel, pricing: ModelPricing, tokens: (message: Message) => number): ModeCost {
  let promptTokens = 0;
  let cachedTokens = 0;
  let cache: Message[] = [];
  for (const call of calls) {
    const prompt = sum(call.request.map(tokens));
    let cached = 0;
    for (let index = 0; index < call.request.length && index < cache.length; index++) {
      const [left, right] = [call.request[index]!, cache[index]!];
      if (left !== right && visibleTextOf(left) !== visibleTextOf(right)) break;
      cached += tokens(left);
    }
    promptTokens += prompt;
    cachedTokens += cached;
    cache = cacheModel === "kv" && call.response ? [...call.request, call.response] : call.request;
  }
  const inputCost = ((promptTokens - cachedTokens) * pricing.input + cachedTokens * pricing.cacheRead) / 1_000_000;
  return { promptTokens, cachedTokens, inputCost };
}

const texts = new WeakMap<Message, string>();
function visibleTextOf(message: Message): string {
  let text = texts.get(message);
  if (text === undefined) texts.set(message, (text = visibleText(message)));
  return text;
}

function tokenCache(counter: TokenCounter): (message: Message) => number {
  const counts = new WeakMap<Message, number>();
  return (message) => {
    let count = counts.get(message);
    if (count === undefined) counts.set(message, (count = counter.count(visibleTextOf(message))));
    return count;
  };
}

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
const mean = (values: number[]) => (values.length === 0 ? 0 : sum(values) / values.length);
