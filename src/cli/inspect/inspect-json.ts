import type { InspectReport } from "../../inspect/index.js";

/**
 * `ctxkit inspect --json`: `{transcripts: [{id, format, file, model, tokenizer, calls, totals, findings,
 * notes}], totals, findings, problems, skippedTranscripts}`. `findings` at the top lists every
 * transcript's findings with its `transcript` id. With exactly one transcript the top level also has
 * that transcript's `calls`, so `{calls, totals, findings}` reads as in the issue.
 */
export function toInspectJson(report: InspectReport): Record<string, unknown> {
  const findings = report.transcripts.flatMap((transcript) => transcript.findings.map((finding) => ({ transcript: transcript.id, ...finding })));
  const only = report.transcripts.length === 1 ? report.transcripts[0] : undefined;
  return {
    ...(only === undefined ? {} : { calls: only.calls }),
    transcripts: report.transcripts,
    totals: report.totals,
    findings,
    problems: report.problems,
    skippedTranscripts: report.skippedTranscripts,
  };
}
