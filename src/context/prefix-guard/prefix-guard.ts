import { createHash } from "node:crypto";
import type { TokenCounter } from "../../tokens/token-counter.js";
import { commonPrefixLength } from "../../tokens/common-prefix-tokens.js";
import type { SerializedRequest } from "../../providers/provider.js";
import { CtxkitError, type CacheBreak, type ModelRequest, ContextError } from "../../types/index.js";
import { attributeWireOffset } from "./attribute-wire-offset.js";
import { comparePromptTokens, type PromptTokens } from "../../tokens/prompt-tokens.js";

export type { CacheBreak };

export interface PrefixCheck {
  /** The body as it goes on the wire, and the SHA-256 of it (stored in the session's request record). */
  serialized: SerializedRequest;
  bodyHash: string;
  /** Characters of the previous body (without its tail) that start this body unchanged. */
  reusablePrefixChars: number;
  /** Prompt tokens of this request, when its prompt tokens are known. */
  promptTokens?: number;
  /** Tokens of the previous prompt's body that this prompt repeats unchanged, when prompt tokens are known. */
  reusablePrefixTokens?: number;
  /** The same, by the estimator, when prompt tokens are not known (counted incrementally: only new bytes each call). */
  estimatedReusablePrefixTokens?: number;
  cacheBreak?: CacheBreak;
}

export interface PrefixGuardOptions {
  /** The provider's wire form of a request (`provider.serialize`): what is compared. */
  serialize: (request: ModelRequest) => SerializedRequest;
  /**
   * The prompt tokens the model sees, when the chat template and tokenizer are known (a Qwen3 model
   * behind vLLM or llama.cpp, the embedded engine). Catches breaks that happen in the template.
   */
  promptTokens?: (request: ModelRequest) => PromptTokens;
  /** Counts the lost part of the body when no prompt tokens are known (the estimator, typically). */
  counter: TokenCounter;
  /** Throw a `prefix_break` error on an undeclared break (used by tests to keep the invariant). */
  strict?: boolean;
}

export interface PrefixGuard {
  /** Compares a request with the previous one checked; pass `declared` when the break is intended. */
  check(request: ModelRequest, declared?: { reason: string }): PrefixCheck;
  reset(): void;
}

interface Checked {
  request: ModelRequest;
  /** The body before the tail: what the next request must start with. */
  prefix: string;
  tokens?: PromptTokens;
  /**
   * The estimator's count of `prefix`, kept when prompt tokens are not known. Counted when the next
   * check asks for it: the first request of a run is sent without counting its whole prefix (some
   * 13 KB of system prompt and tools in the CLI, milliseconds of its start), and a run of one call
   * never counts it.
   */
  estimatedTokens?: () => number;
}

/**
 * Watches consecutive requests for the prefix invariant on what is actually sent: the previous
 * request's wire body up to its tail must start the next body unchanged, and — when the prompt
 * tokens are known — the previous prompt's tokens up to its tail must start the next prompt. A
 * difference is attributed to the layer that produced it (system, a tool, a message, the request's
 * settings) by mapping the wire offset (or the token position) back through the serializer, and
 * priced in lost tokens: the prompt's own tokens when known, the estimator's otherwise (`tokenSource`
 * says which). Fields no wire format sends (stop reasons, parsed arguments, ctxkit's metadata) can
 * never raise an alarm, because they are not in the body.
 */
export function createPrefixGuard(options: PrefixGuardOptions): PrefixGuard {
  let previous: Checked | undefined;

  return {
    check(request, declared) {
      const serialized = options.serialize(request);
      const bodyHash = hashBody(serialized.body);
      const tokens = options.promptTokens?.(request);
      const current: Checked = { request, prefix: serialized.body.slice(0, serialized.prefixLength), ...(tokens ? { tokens } : {}) };
      const last = previous;
      previous = current;
      const base = { serialized, bodyHash, ...(tokens ? { promptTokens: tokens.total } : {}) };
      const wireIntact = last !== undefined && serialized.body.startsWith(last.prefix);
      if (!tokens) {
        const counted = wireIntact ? last.estimatedTokens : undefined;
        const added = wireIntact && counted !== undefined ? current.prefix.slice(last.prefix.length) : current.prefix;
        current.estimatedTokens = countOnce(() => (counted?.() ?? 0) + options.counter.count(added));
      }
      if (last === undefined) return { ...base, reusablePrefixChars: 0, ...(tokens ? { reusablePrefixTokens: 0 } : { estimatedReusablePrefixTokens: 0 }) };

      const reusablePrefixChars = wireIntact ? last.prefix.length : commonPrefixLength(last.prefix, serialized.body);
      const tokenComparison = last.tokens && tokens ? comparePromptTokens(last.tokens, tokens) : undefined;
      const estimated = !tokens && wireIntact && last.estimatedTokens !== undefined ? { estimatedReusablePrefixTokens: last.estimatedTokens() } : {};
      const result: PrefixCheck = { ...base, reusablePrefixChars, ...(tokenComparison ? { reusablePrefixTokens: tokenComparison.sharedTokens } : {}), ...estimated };
      if (wireIntact && tokenComparison?.break === undefined) return result;

      const wire = wireIntact ? undefined : attributeWireOffset(last.request, options.serialize, reusablePrefixChars);
      const tokenBreak = tokenComparison?.break;
      // Prompt order: the earlier of the two places is where the cache stops.
      const byTokens = tokenBreak !== undefined && (wire === undefined || layerRank(tokenBreak) < layerRank(wire));
      const where = byTokens ? tokenBreak! : wire!;
      const lostText = last.prefix.slice(reusablePrefixChars);
      const cacheBreak: CacheBreak = {
        layer: where.layer,
        index: where.index,
        firstDifferingByte: wireIntact ? -1 : Buffer.byteLength(last.prefix.slice(0, reusablePrefixChars), "utf8"),
        firstDifferingToken: tokenComparison ? tokenComparison.sharedTokens : options.counter.count(last.prefix.slice(0, reusablePrefixChars)),
        lostTokens: tokenComparison ? tokenComparison.lostTokens : options.counter.count(lostText),
        tokenSource: tokenComparison ? "prompt" : "estimate",
        detectedBy: wireIntact ? "tokens" : tokenBreak ? "both" : "wire",
        declared: declared !== undefined,
        ...(declared ? { reason: declared.reason } : {}),
        ...(tokenBreak?.detail ? { detail: tokenBreak.detail } : {}),
        excerpt: wireIntact
          ? { previous: tokenBreak?.previousText ?? "", next: tokenBreak?.nextText ?? "" }
          : { previous: excerpt(last.prefix, reusablePrefixChars), next: excerpt(serialized.body, reusablePrefixChars) },
      };
      if (options.strict && !cacheBreak.declared) throw prefixBreakError(cacheBreak);
      return { ...result, ...(tokens ? {} : { estimatedReusablePrefixTokens: cacheBreak.firstDifferingToken }), cacheBreak };
    },
    reset() {
      previous = undefined;
    },
  };
}

/** `count` run on the first call only; what it needed is let go then. */
function countOnce(count: () => number): () => number {
  let pending: (() => number) | undefined = count;
  let tokens = 0;
  return () => {
    if (pending !== undefined) {
      tokens = pending();
      pending = undefined;
    }
    return tokens;
  };
}

/** SHA-256 of a wire body, as stored in request records (`sha256:` + hex). */
export function hashBody(body: string): string {
  return `sha256:${createHash("sha256").update(body, "utf8").digest("hex")}`;
}

const layerOrder = ["request", "system_static", "system_session", "tools", "message", "tail"];

function layerRank(place: { layer: string; index: number }): number {
  return layerOrder.indexOf(place.layer) * 1_000_000 + place.index;
}

export function describeCacheBreak(cacheBreak: CacheBreak): string {
  const where = cacheBreak.layer === "message" || cacheBreak.layer === "tools" ? `${cacheBreak.layer}[${cacheBreak.index}]` : cacheBreak.layer;
  const at = cacheBreak.firstDifferingByte >= 0 ? `at byte ${cacheBreak.firstDifferingByte} ` : "in the rendered prompt only ";
  const tokens = cacheBreak.tokenSource === "prompt" ? "prompt tokens" : "tokens (estimated)";
  return (
    `${cacheBreak.declared ? "Declared" : "Undeclared"} cache break in ${where} ${at}` +
    `(token ${cacheBreak.firstDifferingToken}): ${cacheBreak.lostTokens} cached ${tokens} lost` +
    (cacheBreak.reason ? ` — ${cacheBreak.reason}` : "") +
    (cacheBreak.detail ? `. ${cacheBreak.detail}` : "") +
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
