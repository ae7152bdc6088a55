import wordingsFile from "./fixtures/overflow-wordings.json" with { type: "json" };

/**
 * Vendors' error responses as recorded in public code and issues (each names its source): ones that
 * mean "the prompt does not fit" and look-alikes that do not. They live in
 * `fixtures/overflow-wordings.json`, which only grows: a wording that was ever recognised stays there
 * (Cohere's "too many tokens: …" was lost once when the patterns were rewritten). Shared by the unit
 * test of `isContextOverflow` and the hardening benchmark, which sends them through loopback HTTP.
 */
export type OverflowErrorSample = [source: string, status: number | undefined, body: string];

interface WordingEntry {
  source: string;
  status: number | null;
  body: string;
}

const toSample = (entry: WordingEntry): OverflowErrorSample => [entry.source, entry.status ?? undefined, entry.body];

export const overflows: OverflowErrorSample[] = (wordingsFile.overflows as WordingEntry[]).map(toSample);

export const notOverflows: OverflowErrorSample[] = (wordingsFile.notOverflows as WordingEntry[]).map(toSample);
