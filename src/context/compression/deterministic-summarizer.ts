import { summarizeExtractively } from "./extractive-summary.js";
import { summarizeInSections, summarizeTurns } from "./sectioned-summary.js";
import type { Summarizer, SummaryInput } from "./summarizer.js";

/**
 * The offline summariser: extractive and rule-based, the same output for the same input, no model
 * call. It keeps what a model summary most often loses — identifiers, error messages, sources — and
 * drops prose. Tests and benchmarks use it so they run anywhere; it is also the fallback whenever a
 * model summary fails.
 */
export function createDeterministicSummarizer(): Summarizer {
  return {
    name: "deterministic",
    summarize: async (input) => summarizeDeterministically(input),
  };
}

export function summarizeDeterministically(input: SummaryInput): string {
  switch (input.purpose) {
    case "tool-result":
    case "tool-results":
      return summarizeExtractively(input);
    case "turns":
      return summarizeTurns(input);
    case "compaction":
      return summarizeInSections(input);
  }
}
