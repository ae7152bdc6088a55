import type { CompressionStats } from "./compression-stats.js";
import { summarizeDeterministically } from "./deterministic-summarizer.js";
import { keepFailures } from "./keep-failures.js";
import type { Summarizer, SummaryInput } from "./summarizer.js";

/**
 * Summarises with the configured summariser and falls back to the deterministic one when it throws
 * or answers with nothing: a compaction must not fail because a model call did (users report
 * "conversation too long" deadlocks exactly when the summary call itself overflows). Summaries of
 * tool results keep the error lines of failed calls whatever the summariser wrote.
 */
export async function summarizeSafely(summarizer: Summarizer, input: SummaryInput, stats: CompressionStats, signal?: AbortSignal): Promise<string> {
  let summary = "";
  try {
    summary = await summarizer.summarize(input, signal);
  } catch {
    // Counted below; the fallback keeps the run going.
  }
  if (summary.trim() === "") {
    stats.summarizerFailures += 1;
    summary = summarizeDeterministically(input);
  }
  // Tool-result summaries are free text; turns and compactions carry failures in their own form.
  return input.purpose === "tool-result" || input.purpose === "tool-results" ? keepFailures(summary, input.sources) : summary;
}
