import { extractErrorLines } from "./extract-identifiers.js";
import type { SummarySource } from "./summarizer.js";

/**
 * A summary of failed calls that still says why they failed: the error lines of every error
 * source that the summary lost are put in front of it. Erasing failed attempts erases experience
 * (the seed), and a summariser that weighs lines by relevance can drop them.
 */
export function keepFailures(summary: string, sources: readonly SummarySource[]): string {
  const missing: string[] = [];
  for (const source of sources) {
    if (!source.isError) continue;
    const errors = extractErrorLines(source.text, 3);
    const lines = errors.length > 0 ? errors : [source.text.trim().split("\n")[0]!.slice(0, 300)];
    for (const line of lines) if (line !== "" && !summary.includes(line)) missing.push(`Failed (${source.label}): ${line}`);
  }
  return missing.length === 0 ? summary : `${missing.join("\n")}\n${summary}`;
}
