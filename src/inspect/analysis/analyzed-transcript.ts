import type { Finding } from "../findings/finding.js";
import type { TranscriptFormat } from "../imported-transcript.js";
import type { CallBreak } from "./call-break.js";
import type { Composition } from "./composition.js";
import type { InspectTokenizer } from "./prompt-meter.js";
import type { CallCost } from "../../tokens/pricing.js";
import type { CacheMiss } from "../../types/index.js";

/** One model call of a transcript, measured. */
export interface AnalyzedCall {
  index: number;
  /** Prompt tokens as the chosen tokenizer counts the request (tail and generation prompt included). */
  promptTokens: number;
  /** Tokens at the start of this prompt identical to the previous prompt: what a prefix cache could reuse. */
  reusablePrefixTokens: number;
  /** What the provider reported, when the transcript records usage; null otherwise (never a guess). */
  reportedPromptTokens: number | null;
  reportedCachedTokens: number | null;
  /** promptTokens − reusablePrefixTokens: what the model had to process anew. */
  newTokens: number;
  composition: Composition;
  /** Tokens of the tail (the status bar), part of promptTokens; a cache is not expected to reuse them. */
  tailTokens: number;
  /** USD of this call under the transcript's prices, split as the usage ledger splits it; absent without prices. */
  cost?: CallCost;
  breaks: CallBreak[];
  /** Set when the reported cached tokens fell short of the reusable prefix: why, and what it re-billed. */
  miss?: CacheMiss;
}

/** Which prices were used for the calls of one model. */
export interface PriceUse {
  /** The calls' model as recorded; null when not recorded (a fixed --pricing applies). */
  model: string | null;
  /** The catalog entry (or file) the prices came from. */
  pricing: string;
  calls: number;
  /** The entry is another model's, the longest catalog name this model starts with (no entry of its own). */
  fallback: boolean;
}

/** What a run cost under a price list; cached tokens are the reported ones where recorded, else the cache rule's. */
export interface TranscriptCost {
  /** The price lists used, comma-separated (one per model when the run switched models). */
  pricing: string;
  /** Per model: which prices, for how many calls, and whether that was a fallback. */
  prices: PriceUse[];
  /** Calls whose model has no prices: left out of the cost. */
  unpricedCalls: number;
  cacheRule: string;
  /** "reported": every call had reported prompt and cached tokens; "computed": none did; "mixed". */
  basis: "reported" | "computed" | "mixed";
  promptTokens: number;
  cachedTokens: number;
  cacheWriteTokens: number;
  /** Cache writes the provider reported as 1-hour writes (priced at the 1-hour rate). */
  cacheWrite1hTokens: number;
  outputTokens: number;
  cachedShare: number;
  /** USD. */
  input: number;
  cacheRead: number;
  cacheWrite: number;
  output: number;
  total: number;
  /** The cost the transcript itself records (OpenRouter, LiteLLM), when every call has one. */
  reportedCost?: number;
}

/** Token and break totals, for one transcript or summed over several (see OverallTotals). */
export interface TokenTotals {
  calls: number;
  promptTokens: number;
  reusablePrefixTokens: number;
  /** reusablePrefixTokens / promptTokens. */
  reusableShare: number;
  newTokens: number;
  reportedPromptTokens: number | null;
  reportedCachedTokens: number | null;
  reportedCachedShare: number | null;
  /** The reusable share a pure append-only run of the same prompt sizes would reach (see `appendOnlyLimitTokens`). */
  appendOnlyLimitTokens: number;
  appendOnlyLimitShare: number;
  breaks: number;
  undeclaredBreaks: number;
}

export interface TranscriptTotals extends TokenTotals {
  cost: TranscriptCost | null;
  /** Calls whose reported usage was all zeros: treated as unreported (their tokens are counted here). */
  zeroUsageCalls: number;
}

export interface AnalyzedTranscript {
  id: string;
  format: TranscriptFormat;
  file: string;
  model?: string;
  tokenizer: { name: InspectTokenizer; description: string; exact: boolean };
  calls: AnalyzedCall[];
  totals: TranscriptTotals;
  findings: Finding[];
  /** Caveats about the numbers (what the transcript does not record, approximations). */
  notes: string[];
}
