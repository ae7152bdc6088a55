import { extractIdentifiers } from "./extract-identifiers.js";
import type { SummarySource } from "./summarizer.js";

/**
 * The share of the identifiers of archived turns that stay visible: in the archive's lines or in
 * what the context already shows (`known`). Only what the tools returned and what the user wrote
 * counts — archive lines leave out the model's narration on purpose (see `turnLine`). 1 when the
 * turns hold no identifier.
 */
export function archiveCoverage(sources: readonly SummarySource[], lines: string, known = ""): number {
  return identifierCoverage(sources.map(factText).join("\n"), `${lines}\n${known}`);
}

/** The share of the identifiers of `original` that `replacement` still shows (1 when there are none). */
export function identifierCoverage(original: string, replacement: string): number {
  const wanted = new Set(extractIdentifiers(original));
  if (wanted.size === 0) return 1;
  let kept = 0;
  for (const identifier of wanted) if (replacement.includes(identifier)) kept += 1;
  return kept / wanted.size;
}

function factText(source: SummarySource): string {
  const [, ...rest] = source.text.split("\n");
  const saidFirst = source.kind === "assistant" && rest[0]?.startsWith("said: ") === true;
  return (saidFirst ? rest.slice(1) : rest).join("\n");
}
