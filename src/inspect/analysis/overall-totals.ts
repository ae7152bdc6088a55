import type { AnalyzedTranscript, TokenTotals } from "./analyzed-transcript.js";

/** Totals over every transcript of one `ctxkit inspect` run. */
export interface OverallTotals extends TokenTotals {
  transcripts: number;
  /** USD over the transcripts that have a price list; `pricedTranscripts` says how many. */
  cost: number | null;
  pricedTranscripts: number;
  findings: number;
}

export function computeOverallTotals(transcripts: readonly AnalyzedTranscript[]): OverallTotals {
  const sum = (pick: (transcript: AnalyzedTranscript) => number) => transcripts.reduce((total, transcript) => total + pick(transcript), 0);
  const sumKnown = (pick: (transcript: AnalyzedTranscript) => number | null): number | null => {
    const known = transcripts.map(pick).filter((value): value is number => value !== null);
    return known.length === 0 ? null : known.reduce((total, value) => total + value, 0);
  };
  const promptTokens = sum((transcript) => transcript.totals.promptTokens);
  const reusablePrefixTokens = sum((transcript) => transcript.totals.reusablePrefixTokens);
  const limit = sum((transcript) => transcript.totals.appendOnlyLimitTokens);
  const reportedPrompt = sumKnown((transcript) => transcript.totals.reportedPromptTokens);
  const reportedCached = sumKnown((transcript) => transcript.totals.reportedCachedTokens);
  const priced = transcripts.filter((transcript) => transcript.totals.cost !== null);
  const share = (part: number, whole: number) => (whole === 0 ? 0 : part / whole);
  return {
    transcripts: transcripts.length,
    calls: sum((transcript) => transcript.totals.calls),
    promptTokens,
    reusablePrefixTokens,
    reusableShare: share(reusablePrefixTokens, promptTokens),
    newTokens: sum((transcript) => transcript.totals.newTokens),
    reportedPromptTokens: reportedPrompt,
    reportedCachedTokens: reportedCached,
    reportedCachedShare: reportedPrompt === null || reportedCached === null ? null : share(reportedCached, reportedPrompt),
    appendOnlyLimitTokens: limit,
    appendOnlyLimitShare: share(limit, promptTokens),
    breaks: sum((transcript) => transcript.totals.breaks),
    undeclaredBreaks: sum((transcript) => transcript.totals.undeclaredBreaks),
    cost: priced.length === 0 ? null : priced.reduce((total, transcript) => total + transcript.totals.cost!.total, 0),
    pricedTranscripts: priced.length,
    findings: sum((transcript) => transcript.findings.length),
  };
}
