import type { TokenCounter } from "../../tokens/token-counter.js";
import { CtxkitError, type CacheBreak, type ModelRequest, ContextError } from "../../types/index.js";

export type { CacheBreak };
import { commonPrefixLength } from "../../tokens/common-prefix-tokens.js";
import { findLayerDifference } from "./find-cache-break.js";
import { toRequestLayers, type RequestLayer } from "./request-layers.js";

export interface PrefixCheck {
  /** Tokens of the whole request, tail included. */
  promptTokens: number;
  /** Tokens of the previous request's body that this request repeats unchanged at its start. */
  reusablePrefixTokens: number;
  cacheBreak?: CacheBreak;
}

export interface PrefixGuardOptions {
  /** Counts layer tokens; exact counters also locate the first differing token inside a layer. */
  counter: TokenCounter;
  /** Throw a `prefix_break` error on an undeclared break (used by tests to keep the invariant). */
  strict?: boolean;
}

export interface PrefixGuard {
  /** Compares a request with the previous one checked; pass `declared` when the break is intended. */
  check(request: ModelRequest, declared?: { reason: string }): PrefixCheck;
  reset(): void;
}

/**
 * Watches consecutive requests for the prefix invariant: each request's body (without its tail)
 * must start the next request unchanged. On a difference it names the layer and index, the first
 * differing byte and token, and how many cached tokens were lost. Token counts are cached per
 * layer hash, so a call costs O(new layers), not O(context).
 */
export function createPrefixGuard(options: PrefixGuardOptions): PrefixGuard {
  const tokenCounts = new Map<string, number>();
  let previousBody: RequestLayer[] | undefined;
  const tokensOf = (layer: RequestLayer): number => {
    let count = tokenCounts.get(layer.hash);
    if (count === undefined) {
      count = options.counter.count(layer.text);
      tokenCounts.set(layer.hash, count);
    }
    return count;
  };

  return {
    check(request, declared) {
      const layers = toRequestLayers(request);
      const promptTokens = layers.reduce((sum, layer) => sum + tokensOf(layer), 0);
      const previous = previousBody;
      previousBody = layers.filter((layer) => layer.layer !== "tail");
      if (previous === undefined) return { promptTokens, reusablePrefixTokens: 0 };

      const previousBodyTokens = previous.reduce((sum, layer) => sum + tokensOf(layer), 0);
      const difference = findLayerDifference(previous, layers);
      if (difference === undefined) return { promptTokens, reusablePrefixTokens: previousBodyTokens };

      const before = previous.slice(0, difference.position).reduce((sum, layer) => sum + tokensOf(layer), 0);
      const withinLayer =
        options.counter.encode && difference.nextText !== undefined
          ? commonPrefixLength(options.counter.encode(difference.previousText), options.counter.encode(difference.nextText))
          : 0;
      const reusablePrefixTokens = before + withinLayer;
      const cacheBreak: CacheBreak = {
        layer: difference.layer,
        index: difference.index,
        firstDifferingByte: difference.bodyOffset,
        firstDifferingToken: reusablePrefixTokens,
        lostTokens: previousBodyTokens - reusablePrefixTokens,
        declared: declared !== undefined,
        ...(declared ? { reason: declared.reason } : {}),
        excerpt: {
          previous: excerpt(difference.previousText, difference.offsetInLayer),
          next: difference.nextText === undefined ? "(removed)" : excerpt(difference.nextText, difference.offsetInLayer),
        },
      };
      if (options.strict && !cacheBreak.declared) throw prefixBreakError(cacheBreak);
      return { promptTokens, reusablePrefixTokens, cacheBreak };
    },
    reset() {
      previousBody = undefined;
    },
  };
}

export function describeCacheBreak(cacheBreak: CacheBreak): string {
  const where = cacheBreak.layer === "message" || cacheBreak.layer === "tools" ? `${cacheBreak.layer}[${cacheBreak.index}]` : cacheBreak.layer;
  return (
    `${cacheBreak.declared ? "Declared" : "Undeclared"} cache break in ${where} at byte ${cacheBreak.firstDifferingByte} ` +
    `(token ${cacheBreak.firstDifferingToken}): ${cacheBreak.lostTokens} cached tokens lost` +
    (cacheBreak.reason ? ` — ${cacheBreak.reason}` : "") +
    `. Was ${JSON.stringify(cacheBreak.excerpt.previous)}, now ${JSON.stringify(cacheBreak.excerpt.next)}.`
  );
}

function prefixBreakError(cacheBreak: CacheBreak): CtxkitError {
  return new ContextError(
    "prefix_break",
    `${describeCacheBreak(cacheBreak)} Keep dynamic values out of the system prompt and tools, never edit sent messages, ` +
      "and declare intended breaks (compaction, tool-set changes).",
  );
}

function excerpt(text: string, offset: number): string {
  return text.slice(Math.max(0, offset - 20), offset + 30);
}
