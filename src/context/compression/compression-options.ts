import type { TokenCounter } from "../../tokens/token-counter.js";
import { getTokenCounter } from "../../tokens/get-token-counter.js";
import { ConfigError } from "../../types/index.js";
import { createBlobCollector, type BlobCollector } from "./blob-store.js";
import { createDeterministicSummarizer } from "./deterministic-summarizer.js";
import type { Summarizer } from "./summarizer.js";

export interface CompressionOptions {
  /** The model's context window in tokens. */
  contextWindow: number;
  /**
   * Compress when the context passes this share of the window (default 0.9, the share Codex
   * auto-compacts at; it was 0.8, the seed's threshold). Archives and their condensing keep lines
   * verbatim, so room held back under the trigger is room those lines do not get: on the tune half
   * of swe-gemini at 12k, 0.9 kept 0.973 of the cited lines against 0.957 at 0.8, at the same cost
   * and with no overflow (16k: 0.994 either way). The rest of the window is the answer's room.
   */
  trigger?: number;
  /**
   * Room the answer needs (the request's max output tokens): the context is compressed before it
   * leaves less than this, whatever the trigger share says (default 0: the trigger share alone).
   * At 16k, 0.9 leaves 1.6k for the answer; a model asked for 4k would overflow first.
   */
  reservedOutputTokens?: number;
  /** Compress down to this share of the window (default 0.5). */
  target?: number;
  /** Summaries by a model; default: the deterministic summariser (offline, reproducible). */
  summarizer?: Summarizer;
  /** Counts tokens when the provider reported no usage (default: the calibrated estimator). */
  counter?: TokenCounter;
  /** Prompt-cache lifetime: idle longer than this, the cache is cold (default 5 minutes). */
  cacheTtlMs?: number;
  /** With a cold cache, compress from this share of the window on (default 0.6). */
  coldTrigger?: number;
  /**
   * With a warm cache, clear old results from this share of the window on, whenever the cache
   * economics say the saving over the calls to come pays for the cache rebuild (default 0.1).
   */
  earlyTrigger?: number;
  /**
   * Never compress early (or for a cold cache) below this many tokens (default 4,000). Early batches
   * keep every fact (see `earlyCoverage`), so starting them sooner costs no lines: on the tune half
   * of swe-gemini, 4,000 instead of 10,000 cut the cost 6% at 32k and 15% at 64k at the same line
   * recall. (10,000 was the old default because τ-bench dialogues, 5–9k tokens, lost a third of
   * their cited lines to early batches; with `earlyCoverage` they lose none.)
   */
  earlyMinTokens?: number;
  /** An early batch aims at keeping this share of the context (default 0.5). */
  earlyKeepShare?: number;
  /** What an early batch may do: clear old results to stubs, or also archive old turns (default `archive`). */
  earlyLayers?: "clearing" | "archive";
  /** A cleared result's stub may keep this share of it as fact lines (default 0.3). */
  stubShare?: number;
  /**
   * Archive lines may keep this share of the turns they replace, as fact lines (default 0.8 from a
   * 32k window on, 0.6 below: tuned on the tune half of swe-gemini — at 32k, 0.8 kept 0.998 of the
   * cited lines against 0.986 for 1.2% more cost; at 16k larger archives force full compactions
   * sooner, and those lose lines: 0.941 against 0.968).
   */
  archiveShare?: number;
  /**
   * A needed batch compacts fully only when clearing and archives leave the context above this
   * share of the window; under it, the archives are enough even though the target is missed
   * (default 0.6, at least the target). Archives keep their turns' fact lines and a full summary
   * loses many: on the tune half of swe-gemini at 16k, line recall went from 0.968 to 0.983 at the
   * same cost.
   */
  compactionFloor?: number;
  /**
   * A needed compaction summarises only the oldest turns, as few as bring the context down to this
   * share of the window (else under the compaction floor), archives the newer ones and keeps them
   * beside the summary; `false` (the default) summarises everything before the newest turn. Off by
   * default: on the tune half of swe-gemini, with archive condensing on, it changed nothing at 16k
   * and 12k but cost (+0.3%) and gained 0.002 of line recall at 10k. A share between 0 and the
   * trigger (anything else is a `ConfigError`). Its cost is in the planning, not the model: each
   * candidate cut rebuilds the newer turns' archives to weigh it, so one needed batch does work
   * quadratic in the turns it could summarise (no model call; only a batch that needs a summary pays it).
   */
  partialCompaction?: number | false;
  /**
   * Before a needed batch summarises (after an overflow too), archives — earlier batches' and its
   * own — are condensed, oldest first, to this share of their fact lines (each turn keeps its first
   * line; the largest turns lose lines first; a line a later archive or a stub left out because this one
   * shows it stays), as few as reach the target — the one that reaches it only as far as the target
   * needs (at a larger share when one fits); a summary is made only if all of them leave the context
   * above the compaction floor (after an overflow: above the target) (default 0.4; 0 turns it off). No model call. On the tune half of swe-gemini
   * at 12k, line recall went from 0.928 to 0.957 and summaries from 34 to 15, for 2% less cost; at
   * 16k, summaries from 9 to 2, recall 0.994 either way (0.3–0.6 all did about as well).
   */
  condenseShare?: number;
  /**
   * A full compaction keeps, beside its summary, fact lines of the turns it replaces, verbatim, in at
   * most this share of the window (and the room under the trigger; after an overflow, under the
   * target): the newest turns' first, errors and named things before bare numbers (default 0.1; 0
   * turns it off). The policy adds them, not the summariser, so they survive a model summary too.
   * The summary is asked for that much less (at least half, and 500 tokens): the lines hold the facts behind
   * the identifiers it would list. On the tune half of swe-gemini line recall went from 0.923 to
   * 0.934 at 10k, 0.984 to 0.985 at 12k and 0.997 to 0.999 at 16k, for 0.7% more cost at 10k and
   * 0.3% and 0.1% less at 12k and 16k (0.05 and 0.075 kept fewer lines at 16k, 0.15 cost more; the
   * lines without a smaller summary cost 1.4–2.1% more at 10k: fuller contexts, more summaries).
   */
  summaryLineShare?: number;
  /**
   * The archive share of early (optional) batches (default 1: every fact line of the turns, up to
   * their size — an optional batch should drop only what holds no new identifier).
   */
  earlyArchiveShare?: number;
  /**
   * An early (optional) batch clears only results whose stubs, and archives only turns whose
   * archives, keep this share of their identifiers visible (default 0.9). Dense results — JSON
   * records where every line holds a fact — are left as they are until the context must shrink.
   * (Tuned on the tune half: τ-bench at 16k kept 0.67 of its cited lines without it, all with it.)
   */
  earlyCoverage?: number;
  /** Price of a cached input token relative to an uncached one (default 0.1, Anthropic and OpenAI). */
  cachedPriceRatio?: number;
  /**
   * Calls expected after this one, for the cache economics of an early compaction (default: as many
   * as were made so far). 0 turns early compaction with a warm cache off.
   */
  expectedRemainingCalls?: number;
  /** A tool result over this many tokens is stored whole and shown as a preview (default 8000). */
  toolResultBudgetTokens?: number;
  /** Budgets per tool name, overriding `toolResultBudgetTokens`. */
  perToolBudgets?: Record<string, number>;
  /** Tool output this recent (in tokens) is never cleared (default 15% of the window). */
  keepRecentToolTokens?: number;
  /**
   * Clear or archive only when at least this many tokens are freed (default 5% of the window, at
   * most 800: the cache economics decide whether a batch pays, and a fixed floor kept large
   * windows from the small batches that keep the context short).
   */
  minFreedTokens?: number;
  /**
   * Recent turns kept verbatim by archival summaries and full compaction, in tokens (default 0: only
   * the newest turn, which is always kept). Archived turns keep their results' fact lines verbatim,
   * so a verbatim tail mostly carries again what those lines hold — Claude Code keeps none, pi 10%;
   * on the tune half of swe-gemini every step from 5% of the window down to none was cheaper at the
   * same recall.
   */
  keepRecentTokens?: number;
  /**
   * How a full compaction asks the summariser (default `separate`): in a prompt of its own, or
   * `in-band` — the conversation as last sent plus the instruction, so the provider's prefix cache
   * serves the conversation (only when the summariser is the agent's own model and provider) — or
   * `auto`: in-band when the cached conversation costs less than sending the summarised part anew
   * (cachedPriceRatio × conversation tokens < summarised tokens, a warm cache, and room in the window).
   */
  summaryRequest?: "separate" | "in-band" | "auto";
  /** Consecutive failed or ineffective compactions before the run is stopped (default 3). */
  maxConsecutiveFailures?: number;
  /** Tools whose results are never budgeted or summarised at write time (default: `recall`). */
  exemptTools?: readonly string[];
}

/** Every option with its default filled in, validated once. */
export interface CompressionSettings {
  contextWindow: number;
  trigger: number;
  /** Where compression is needed: the trigger share of the window, or less to leave the answer its room. */
  triggerTokens: number;
  target: number;
  coldTrigger: number;
  /**
   * Collects the originals compression moves out of the context. Nothing is written here: the
   * policy hands the blobs its edits point to to the loop, which stores them when it applies the edit.
   */
  blobs: BlobCollector;
  earlyTrigger: number;
  earlyKeepShare: number;
  earlyLayers: "clearing" | "archive";
  earlyMinTokens: number;
  archiveShare: number;
  compactionFloor: number;
  partialCompaction: number | false;
  condenseShare: number;
  summaryLineShare: number;
  earlyArchiveShare: number;
  earlyCoverage: number;
  stubShare: number;
  summarizer: Summarizer;
  /** True when `summarizer` is a model (given, and not the built-in deterministic one). */
  hasModelSummarizer: boolean;
  counter: TokenCounter;
  cacheTtlMs: number;
  cachedPriceRatio: number;
  expectedRemainingCalls: number | undefined;
  toolResultBudgetTokens: number;
  perToolBudgets: Record<string, number>;
  keepRecentToolTokens: number;
  minFreedTokens: number;
  keepRecentTokens: number;
  maxConsecutiveFailures: number;
  summaryRequest: "separate" | "in-band" | "auto";
  exemptTools: readonly string[];
}

export function resolveCompressionSettings(options: CompressionOptions): CompressionSettings {
  const window = options.contextWindow;
  if (!Number.isFinite(window) || window <= 0) {
    throw new ConfigError("option_invalid", `contextWindow must be a positive number of tokens, got ${String(window)}. Pass the model's window, e.g. 128000.`);
  }
  const trigger = options.trigger ?? 0.9;
  const target = options.target ?? 0.5;
  if (!(target > 0 && target < trigger && trigger <= 1)) {
    throw new ConfigError("option_invalid", `Compression needs 0 < target < trigger ≤ 1, got target ${target} and trigger ${trigger}.`);
  }
  const partialCompaction = options.partialCompaction ?? false;
  if (partialCompaction !== false && !(partialCompaction > 0 && partialCompaction < trigger)) {
    throw new ConfigError(
      "option_invalid",
      `partialCompaction must be false or a share of the window between 0 and the trigger (${trigger}), got ${String(partialCompaction)}. Pass e.g. partialCompaction: 0.5, or false to summarise everything before the newest turn.`,
    );
  }
  const summaryLineShare = options.summaryLineShare ?? 0.1;
  if (!(summaryLineShare >= 0 && summaryLineShare < target)) {
    throw new ConfigError("option_invalid", `summaryLineShare must be a share of the window from 0 (off) to below the target (${target}), got ${String(summaryLineShare)}. Pass e.g. summaryLineShare: 0.1.`);
  }
  const reserved = options.reservedOutputTokens ?? 0;
  if (!(reserved >= 0)) throw new ConfigError("option_invalid", `reservedOutputTokens must be 0 or more tokens, got ${String(reserved)}.`);
  // A reserve so large that the trigger would fall to the target would compress on every call: the
  // trigger never falls below halfway between target and trigger share (128k with 64k of output: 89.6k).
  const triggerTokens = Math.max(Math.min(window * trigger, window - reserved), window * ((target + trigger) / 2));
  return {
    contextWindow: window,
    trigger,
    triggerTokens,
    target,
    coldTrigger: Math.min(options.coldTrigger ?? 0.6, trigger),
    blobs: createBlobCollector(),
    earlyTrigger: Math.min(options.earlyTrigger ?? 0.1, trigger),
    earlyKeepShare: options.earlyKeepShare ?? 0.5,
    earlyLayers: options.earlyLayers ?? "archive",
    earlyMinTokens: options.earlyMinTokens ?? 4000,
    archiveShare: options.archiveShare ?? (window >= 32_000 ? 0.8 : 0.6),
    earlyCoverage: options.earlyCoverage ?? 0.9,
    earlyArchiveShare: options.earlyArchiveShare ?? 1,
    compactionFloor: Math.max(options.compactionFloor ?? 0.6, target),
    partialCompaction,
    condenseShare: options.condenseShare ?? 0.4,
    summaryLineShare,
    stubShare: options.stubShare ?? 0.3,
    summarizer: options.summarizer ?? createDeterministicSummarizer(),
    hasModelSummarizer: options.summarizer !== undefined && options.summarizer.name !== "deterministic",
    counter: options.counter ?? getTokenCounter("estimate"),
    cacheTtlMs: options.cacheTtlMs ?? 5 * 60 * 1000,
    cachedPriceRatio: options.cachedPriceRatio ?? 0.1,
    expectedRemainingCalls: options.expectedRemainingCalls,
    toolResultBudgetTokens: options.toolResultBudgetTokens ?? 8000,
    perToolBudgets: options.perToolBudgets ?? {},
    keepRecentToolTokens: options.keepRecentToolTokens ?? Math.round(window * 0.15),
    minFreedTokens: options.minFreedTokens ?? Math.min(800, Math.round(window * 0.05)),
    keepRecentTokens: options.keepRecentTokens ?? 0,
    maxConsecutiveFailures: options.maxConsecutiveFailures ?? 3,
    summaryRequest: options.summaryRequest ?? "separate",
    exemptTools: options.exemptTools ?? ["recall"],
  };
}
