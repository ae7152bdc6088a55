import { createPrefixGuard } from "../../context/prefix-guard/prefix-guard.js";
import { findLayerDifference } from "../../context/prefix-guard/find-cache-break.js";
import { toRequestLayers } from "../../context/prefix-guard/request-layers.js";
import type { SerializedRequest } from "../../providers/provider.js";
import { getTokenCounter } from "../../tokens/get-token-counter.js";
import { createQwen3PromptTokens } from "../../tokens/prompt-tokens.js";
import { renderModelRequest } from "../../tokens/count-rendered-prompt.js";
import type { ModelRequest } from "../../types/index.js";
import { serializeAsOpenAI } from "../kv-cache/serialize-as-openai.js";
import type { Dialogue } from "../kv-cache/context-modes.js";
import { buildScenarioRequests, type GuardScenario } from "./guard-scenarios.js";

export const guardNames = ["legacy layer hashes", "wire body", "wire body + Qwen3 tokens"] as const;
export type GuardName = (typeof guardNames)[number];

export interface GuardScore {
  /** Consecutive request pairs compared. */
  pairs: number;
  /** Pairs where what is sent really stopped extending the previous request (bytes or prompt tokens). */
  realBreaks: number;
  reported: Record<GuardName, number>;
  falseAlarms: Record<GuardName, number>;
  misses: Record<GuardName, number>;
}

/**
 * Scores three guards on one scenario against what is really sent: a pair is a real break when the
 * next OpenAI-format wire body does not start with the previous body before its tail, or when the
 * next prompt Qwen3's template renders (full render, exact Qwen3 tokens) does not start with the
 * previous prompt's tokens before its tail. The truth is computed here with whole renders, apart
 * from the guards' own incremental machinery.
 */
export function scoreScenario(dialogues: readonly Dialogue[], scenario: GuardScenario): GuardScore {
  const score: GuardScore = { pairs: 0, realBreaks: 0, reported: zero(), falseAlarms: zero(), misses: zero() };
  const qwen3 = getTokenCounter("qwen3");
  for (const dialogue of dialogues) {
    const { requests, serializerChangesAt } = buildScenarioRequests(dialogue, scenario);
    let call = 0;
    const serialize = (request: ModelRequest): SerializedRequest => (serializerChangesAt !== undefined && call >= serializerChangesAt ? changedWire(request) : serializeAsOpenAI(request));
    const legacy = createLegacyGuard();
    const wire = createPrefixGuard({ serialize, counter: getTokenCounter("estimate") });
    const tokens = createPrefixGuard({ serialize, counter: getTokenCounter("estimate"), promptTokens: createQwen3PromptTokens(qwen3) });
    let previous: { body: string; prefix: string; bodyTokens: number[] } | undefined;
    for (const request of requests) {
      const serialized = serialize(request);
      const rendered = renderModelRequest(request);
      const tailStart = request.tail ? rendered.lastIndexOf(`<|im_start|>user\n${request.tail.content}<|im_end|>\n`) : rendered.lastIndexOf("<|im_start|>assistant\n");
      const fullTokens = qwen3.encode!(rendered);
      const verdicts: Record<GuardName, boolean> = {
        "legacy layer hashes": legacy(request),
        "wire body": wire.check(request).cacheBreak !== undefined,
        "wire body + Qwen3 tokens": tokens.check(request).cacheBreak !== undefined,
      };
      if (previous !== undefined) {
        score.pairs += 1;
        const real = !serialized.body.startsWith(previous.prefix) || !startsWith(fullTokens, previous.bodyTokens);
        if (real) score.realBreaks += 1;
        for (const name of guardNames) {
          if (verdicts[name]) score.reported[name] += 1;
          if (verdicts[name] && !real) score.falseAlarms[name] += 1;
          if (!verdicts[name] && real) score.misses[name] += 1;
        }
      }
      previous = { body: serialized.body, prefix: serialized.body.slice(0, serialized.prefixLength), bodyTokens: qwen3.encode!(rendered.slice(0, tailStart)) };
      call += 1;
    }
  }
  return score;
}

/** The guard ctxkit had before it checked the wire: hashes of each message's JSON without its meta. */
function createLegacyGuard(): (request: ModelRequest) => boolean {
  let previousBody: ReturnType<typeof toRequestLayers> | undefined;
  return (request) => {
    const layers = toRequestLayers(request);
    const previous = previousBody;
    previousBody = layers.filter((layer) => layer.layer !== "tail");
    return previous !== undefined && findLayerDifference(previous, layers) !== undefined;
  };
}

/** A provider update that puts a space before every message's content: same JSON value, other bytes. */
function changedWire(request: ModelRequest): SerializedRequest {
  const original = serializeAsOpenAI(request);
  const escape = (text: string) => text.replace(/,"content":/g, ', "content":');
  return { body: escape(original.body), prefixLength: escape(original.body.slice(0, original.prefixLength)).length };
}

function startsWith(tokens: readonly number[], prefix: readonly number[]): boolean {
  if (prefix.length > tokens.length) return false;
  for (let index = 0; index < prefix.length; index += 1) if (tokens[index] !== prefix[index]) return false;
  return true;
}

function zero(): Record<GuardName, number> {
  return { "legacy layer hashes": 0, "wire body": 0, "wire body + Qwen3 tokens": 0 };
}
