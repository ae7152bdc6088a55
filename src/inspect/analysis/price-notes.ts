import type { ImportedTranscript } from "../imported-transcript.js";
import type { TranscriptTotals } from "./analyzed-transcript.js";

/** Says which prices were used where that is not obvious: fallbacks, several models, unpriced calls. */
export function priceNotes(transcript: ImportedTranscript, totals: TranscriptTotals): string[] {
  const cost = totals.cost;
  if (cost === null) return [`No prices for model ${transcript.model ?? "(not recorded)"}; give prices for a cost (the \`pricing\` option of inspectFiles; CLI: --pricing <model | prices.json>).`];
  const notes: string[] = [];
  for (const use of cost.prices) {
    if (use.fallback) {
      notes.push(
        `No catalog prices for ${use.model ?? "this model"}: its ${use.calls} call${use.calls === 1 ? " was" : "s were"} priced as ${use.pricing} ` +
          "(the longest catalog name it starts with). Pass --pricing prices.json with its own prices if they differ.",
      );
    }
  }
  const models = new Set(cost.prices.map((use) => use.model));
  if (models.size > 1) notes.push(`The run switched models; each call is priced by its own model (${cost.prices.map((use) => `${use.model ?? "?"}: ${use.calls} at ${use.pricing}`).join("; ")}).`);
  if (cost.unpricedCalls > 0) notes.push(`${cost.unpricedCalls} call${cost.unpricedCalls === 1 ? " has" : "s have"} a model without prices and ${cost.unpricedCalls === 1 ? "is" : "are"} left out of the cost.`);
  return notes;
}
