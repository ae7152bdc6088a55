import type { AnalyzedCall, CallBreak } from "../inspect/index.js";
import type { CacheMiss } from "../types/index.js";
import type { ViewRun } from "./view-source.js";

/** The prompt of one call cut into the four layers the timeline stacks, each split into reusable and new tokens. */
export interface TimelineLayer {
  layer: "system" | "tools" | "history" | "tail";
  tokens: number;
  reusable: number;
}

export interface TimelineCall {
  index: number;
  promptTokens: number;
  reusablePrefixTokens: number;
  newTokens: number;
  reportedPromptTokens: number | null;
  reportedCachedTokens: number | null;
  outputTokens: number | null;
  layers: TimelineLayer[];
  breaks: Array<Pick<CallBreak, "layer" | "index" | "cause" | "detail" | "declared" | "lostTokens" | "firstDifferingToken"> & { reason?: string }>;
  /** The transcript declares this call's context was rewritten (a compaction, a context edit). */
  compaction?: { reason: string };
  hasStatusBar: boolean;
  /** Why this call's cached tokens fell short of its reusable prefix, and what that re-billed (inspect's analysis). */
  miss?: CacheMiss;
  /** USD split as the ledger splits it: uncached input (with cache writes), cache reads, output. */
  cost: { uncached: number; cached: number; output: number; total: number } | null;
}

export interface RunSummary {
  index: number;
  id: string;
  format: string;
  file: string;
  model?: string;
  tokenizer: string;
  calls: number;
  totals: ViewRun["analyzed"]["totals"];
  notes: string[];
  findings: number;
}

export function toRunSummary(run: ViewRun, index: number): RunSummary {
  const { analyzed } = run;
  const summary: RunSummary = {
    index,
    id: analyzed.id,
    format: analyzed.format,
    file: analyzed.file,
    tokenizer: analyzed.tokenizer.description,
    calls: analyzed.calls.length,
    totals: analyzed.totals,
    notes: analyzed.notes,
    findings: analyzed.findings.length,
  };
  if (analyzed.model !== undefined) summary.model = analyzed.model;
  return summary;
}

/** Per-call numbers for the timeline: small (no text), so a 500-call run is one quick response. */
export function toTimeline(run: ViewRun): TimelineCall[] {
  return run.analyzed.calls.map((call) => {
    const imported = run.imported.calls[call.index];
    const entry: TimelineCall = {
      index: call.index,
      promptTokens: call.promptTokens,
      reusablePrefixTokens: call.reusablePrefixTokens,
      newTokens: call.newTokens,
      reportedPromptTokens: call.reportedPromptTokens,
      reportedCachedTokens: call.reportedCachedTokens,
      outputTokens: imported?.reportedUsage?.completionTokens ?? null,
      layers: layersOf(call),
      breaks: call.breaks.map((item) => ({
        layer: item.layer,
        index: item.index,
        cause: item.cause,
        detail: item.detail,
        declared: item.declared,
        lostTokens: item.lostTokens,
        firstDifferingToken: item.firstDifferingToken,
        ...(item.reason === undefined ? {} : { reason: item.reason }),
      })),
      hasStatusBar: imported?.request.tail !== undefined,
      cost: call.cost === undefined ? null : { uncached: call.cost.input + call.cost.cacheWrite, cached: call.cost.cacheRead, output: call.cost.output, total: call.cost.total },
    };
    if (call.miss !== undefined) entry.miss = call.miss;
    if (imported?.declaredBreak !== undefined) entry.compaction = { reason: imported.declaredBreak.reason };
    return entry;
  });
}

/**
 * The template renders system, tools, history and tail in that order, so the reusable prefix
 * covers the layers from the bottom up. History is what remains of the prompt (the trajectory and
 * the generation prompt).
 */
function layersOf(call: AnalyzedCall): TimelineLayer[] {
  const system = call.composition.system;
  const tools = call.composition.tools;
  const tail = Math.min(call.tailTokens, Math.max(0, call.promptTokens - system - tools));
  const history = Math.max(0, call.promptTokens - system - tools - tail);
  let remaining = call.reusablePrefixTokens;
  return (
    [
      ["system", system],
      ["tools", tools],
      ["history", history],
      ["tail", tail],
    ] as const
  ).map(([layer, tokens]) => {
    const reusable = Math.min(tokens, remaining);
    remaining -= reusable;
    return { layer, tokens, reusable };
  });
}
