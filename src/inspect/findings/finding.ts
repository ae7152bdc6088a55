import type { AnalyzedCall } from "../analysis/analyzed-transcript.js";
import type { ImportedTranscript } from "../imported-transcript.js";

export type FindingCode =
  | "dynamic_system_prompt"
  | "tools_reordered"
  | "deleted_history"
  | "flattened_history"
  | "tool_output_in_user_messages"
  | "changed_earlier_message"
  | "reasoning_dropped"
  | "cache_misses";

/** high: breaks the cache or the request on every call; medium: breaks it sometimes; low: costs structure, not cache. */
export type FindingSeverity = "high" | "medium" | "low";

/** An anti-pattern found in a transcript: what, why it costs, how to fix it, and where. */
export interface Finding {
  code: FindingCode;
  severity: FindingSeverity;
  message: string;
  /** Indexes of the calls where it shows. */
  calls: number[];
  evidence: Record<string, unknown>;
}

/** What every detector reads: the imported calls and their analysis, index for index. */
export interface FindingInput {
  transcript: ImportedTranscript;
  calls: readonly AnalyzedCall[];
}

/** A pure function of the analysed calls; undefined when the pattern is absent. */
export type FindingDetector = (input: FindingInput) => Finding | undefined;
