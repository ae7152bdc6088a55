import type { AnalyzedCall, AnalyzedTranscript, CallBreak, Composition, InspectReport, OverallTotals } from "../../inspect/index.js";
import { formatTextTable } from "../../bench/text-table.js";
import type { TerminalStyle } from "../terminal-style.js";

const compositionLabels: Record<keyof Composition, string> = { system: "sys", tools: "tools", user: "user", assistant: "asst", toolResults: "tool", harness: "harness" };

/** The human-readable report: per transcript a table per call, totals, cost, findings; then the overall totals. */
export function formatInspectReport(report: InspectReport, style: TerminalStyle): string {
  const sections = report.transcripts.map((transcript) => formatTranscript(transcript, style));
  if (report.transcripts.length > 1 || report.skippedTranscripts > 0) sections.push(formatOverall(report.totals, report.skippedTranscripts, style));
  return `${sections.join("\n\n")}\n`;
}

function formatTranscript(transcript: AnalyzedTranscript, style: TerminalStyle): string {
  const { totals } = transcript;
  const lines = [
    style.bold(`${transcript.id}`) + ` — ${transcript.format}, ${transcript.model ?? "model not recorded"}, ${plural(totals.calls, "call")}  ${style.dim(transcript.file)}`,
    style.dim(`tokens: ${transcript.tokenizer.description}`),
    callTable(transcript.calls),
    `reusable prefix ${percent(totals.reusableShare)} of prompt tokens (append-only limit ${percent(totals.appendOnlyLimitShare)})` +
      (totals.reportedCachedShare === null ? "; no provider usage recorded" : `; provider reported ${percent(totals.reportedCachedShare)} cached (${count(totals.reportedCachedTokens!)} of ${count(totals.reportedPromptTokens!)})`),
    `cache breaks: ${totals.breaks} (${totals.undeclaredBreaks} undeclared)`,
  ];
  if (totals.zeroUsageCalls > 0) lines.push(style.yellow(`provider reported all-zero usage on ${plural(totals.zeroUsageCalls, "call")} (ignored)`));
  const cost = totals.cost;
  if (cost !== null) {
    const basis = cost.basis === "reported" ? "reported usage" : cost.basis === "computed" ? `computed reuse under ${cost.cacheRule}` : `reported usage where recorded, else ${cost.cacheRule}`;
    const fallbacks = cost.prices.filter((use) => use.fallback).map((use) => `${use.model ?? "?"} → ${use.pricing}`);
    const oneHour = cost.cacheWrite1hTokens > 0 ? ` (${count(cost.cacheWrite1hTokens)} of ${count(cost.cacheWriteTokens)} tokens at the 1-hour rate)` : "";
    lines.push(
      `cost (${cost.pricing}${fallbacks.length > 0 ? style.yellow(` — fallback prices: ${fallbacks.join(", ")}`) : ""}, ${basis}): ` +
        `${dollars(cost.total)} = input ${dollars(cost.input)} + cache reads ${dollars(cost.cacheRead)}` +
        (cost.cacheWrite > 0 ? ` + cache writes ${dollars(cost.cacheWrite)}${oneHour}` : "") +
        ` + output ${dollars(cost.output)}` +
        (cost.reportedCost === undefined ? "" : style.dim(`  (the transcript records ${dollars(cost.reportedCost)})`)),
    );
  }
  if (transcript.findings.length > 0) {
    lines.push("findings:");
    for (const finding of transcript.findings) lines.push(`  ${severity(finding.severity, style)} ${finding.code}: ${finding.message}`);
  } else lines.push("findings: none");
  for (const note of transcript.notes) lines.push(style.dim(`note: ${note}`));
  return lines.join("\n");
}

function callTable(calls: readonly AnalyzedCall[]): string {
  const header = ["call", "prompt", "reusable", "reported cached", "new", "composition", "breaks", "cache miss"];
  const rows = calls.map((call) => [
    String(call.index),
    count(call.promptTokens),
    count(call.reusablePrefixTokens),
    call.reportedCachedTokens === null ? "—" : count(call.reportedCachedTokens),
    count(call.newTokens),
    composition(call.composition),
    call.breaks.map(describeBreak).join("; ") || "—",
    call.miss?.summary ?? "—",
  ]);
  const sum = (pick: (call: AnalyzedCall) => number) => calls.reduce((total, call) => total + pick(call), 0);
  const reported = calls.some((call) => call.reportedCachedTokens !== null) ? count(sum((call) => call.reportedCachedTokens ?? 0)) : "—";
  const footer = ["total", count(sum((call) => call.promptTokens)), count(sum((call) => call.reusablePrefixTokens)), reported, count(sum((call) => call.newTokens)), "", "", ""];
  return formatTextTable(header, rows, { leftColumns: [0, 5, 6, 7], footer });
}

function describeBreak(item: CallBreak): string {
  const where = item.layer === "message" || item.layer === "tools" ? `${item.layer}[${item.index}]` : item.layer;
  const declared = item.declared ? `declared${item.reason ? `: ${item.reason}` : ""}` : "undeclared";
  return `${where} ${item.cause} (${declared}) −${count(item.lostTokens)}`;
}

function composition(parts: Composition): string {
  return (Object.keys(compositionLabels) as Array<keyof Composition>)
    .filter((part) => parts[part] > 0)
    .map((part) => `${compositionLabels[part]} ${compact(parts[part])}`)
    .join(" · ");
}

function formatOverall(totals: OverallTotals, skipped: number, style: TerminalStyle): string {
  return [
    style.bold(`All ${plural(totals.transcripts, "transcript")}`) + (skipped > 0 ? style.dim(` (${skipped} more not analysed: --limit)`) : "") + `: ${plural(totals.calls, "call")}`,
    `prompt ${count(totals.promptTokens)} tokens, reusable ${count(totals.reusablePrefixTokens)} (${percent(totals.reusableShare)}; append-only limit ${percent(totals.appendOnlyLimitShare)}), new ${count(totals.newTokens)}`,
    totals.reportedCachedShare === null ? "no provider usage recorded" : `provider reported ${count(totals.reportedCachedTokens!)} of ${count(totals.reportedPromptTokens!)} prompt tokens cached (${percent(totals.reportedCachedShare)})`,
    `cache breaks: ${totals.breaks} (${totals.undeclaredBreaks} undeclared); findings: ${totals.findings}`,
    totals.cost === null ? "cost: no prices (pass --pricing <model | prices.json>)" : `cost: ${dollars(totals.cost)} over ${plural(totals.pricedTranscripts, "priced transcript")}`,
  ].join("\n");
}

function severity(level: string, style: TerminalStyle): string {
  const label = `[${level}]`;
  return level === "high" ? style.red(label) : level === "medium" ? style.yellow(label) : style.dim(label);
}

const count = (value: number) => value.toLocaleString("en-US");
const compact = (value: number) => (value >= 1000 ? `${(value / 1000).toFixed(value >= 100_000 ? 0 : 1)}k` : String(value));
const percent = (share: number) => `${(share * 100).toFixed(1)}%`;
const dollars = (value: number) => `$${value.toFixed(4)}`;
const plural = (value: number, word: string) => `${count(value)} ${word}${value === 1 ? "" : "s"}`;
