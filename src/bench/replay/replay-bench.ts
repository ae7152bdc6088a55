import { createDeterministicSummarizer } from "../../context/compression/deterministic-summarizer.js";
import type { Summarizer } from "../../context/compression/summarizer.js";
import type { ModelPricing } from "../../tokens/pricing.js";
import type { TokenCounter } from "../../tokens/index.js";
import type { ModelRequest } from "../../types/index.js";
import { createPromptMeter } from "./prompt-meter.js";
import type { RecordedRun } from "./recorded-run.js";
import { findReferencePairs } from "./reference-pairs.js";
import { replayPolicies, type ReplayPolicyFactory } from "./replay-policies.js";
import { summarizeReplayedRun, summarizePolicy, type PolicySummary, type RunSummary } from "./replay-summary.js";
import { replayRun } from "./replay-run.js";
import { halfOf, replayHalves, type ReplayHalf } from "./split-runs.js";
import { createSummaryRecorder } from "./summary-calls.js";

export interface ReplayBenchOptions {
  contextWindow: number;
  counter: TokenCounter;
  pricing: ModelPricing;
  /** Policy names (see `resolveReplayPolicyNames`), in table order. */
  policies: readonly string[];
  /** More policies by name (your own, or a built-in one with other options), next to the built-in ones. */
  factories?: Record<string, ReplayPolicyFactory>;
  /**
   * Writes every summary for every policy that summarises (default: ctxkit's deterministic
   * summariser), so the table compares policies, not summarisers.
   */
  summarizer?: Summarizer;
  /** Sees every replayed request; called in order, one run and policy at a time. */
  onRequest?: (event: { run: string; policy: string; call: number; request: ModelRequest; promptTokens: number }) => void;
  /** Called after each run with all its policies replayed (for progress). */
  onRunDone?: (run: RecordedRun, done: number) => void;
}

export interface ReplayReport {
  contextWindow: number;
  counter: string;
  policies: PolicySummary[];
  /** The same sums over each half of the runs (see `halfOf`): tune on one, report the other. */
  halves: Record<ReplayHalf, PolicySummary[]>;
  /** The same sums per transcript format (`RecordedRun.format`), whole and per half. */
  formats: Record<string, { policies: PolicySummary[]; halves: Record<ReplayHalf, PolicySummary[]> }>;
  runs: RunSummary[];
}

/**
 * Replays every run under every policy and sums the results per policy. Runs are scored on the
 * same reference pairs for every policy; a policy that throws on a run gets an error row and is
 * left out of its totals, so one bug does not hide the other policies' numbers.
 */
export async function runReplayBench(runs: readonly RecordedRun[], options: ReplayBenchOptions): Promise<ReplayReport> {
  const meter = createPromptMeter(options.counter);
  const factories = { ...replayPolicies(), ...options.factories };
  const summarizer = options.summarizer ?? createDeterministicSummarizer();
  const cachedPriceRatio = options.pricing.input > 0 ? Math.min(1, options.pricing.cacheRead / options.pricing.input) : 0.1;
  const rows: RunSummary[] = [];
  for (const [done, run] of runs.entries()) {
    // Messages are shared by every policy of the run: freezing them turns a policy that edits a
    // sent message in place (which would corrupt the other policies' numbers) into an error row.
    for (const message of run.messages) Object.freeze(Object.freeze(message).meta);
    const pairs = findReferencePairs(systemText(run), run.messages);
    for (const policyName of options.policies) {
      const factory = factories[policyName];
      if (factory === undefined) continue;
      let now = new Date(0);
      try {
        const summaries = createSummaryRecorder(summarizer, meter, options.pricing);
        const policy = factory({ contextWindow: options.contextWindow, meter, clock: () => now, summarizer: summaries.summarizer, cachedPriceRatio });
        const replayed = await replayRun(run, policy, {
          contextWindow: options.contextWindow,
          meter,
          pricing: options.pricing,
          pairs,
          summaries,
          onClock: (time) => (now = time),
          onRequest: (call, request, promptTokens) => options.onRequest?.({ run: run.id, policy: policyName, call, request, promptTokens }),
        });
        const row = { ...summarizeReplayedRun({ ...replayed, policy: policyName }), half: halfOf(run.id), format: run.format };
        // ctxkit's compression policies count what they did (cleared, archived, compacted…).
        if ("stats" in policy && typeof policy.stats === "function") row.policyStats = policy.stats() as unknown;
        rows.push(row);
      } catch (error) {
        rows.push({ ...errorRow(run.id, policyName, error), half: halfOf(run.id), format: run.format });
      }
    }
    options.onRunDone?.(run, done + 1);
  }
  const summarize = (selected: readonly RunSummary[]) => options.policies.map((policy) => summarizePolicy(policy, selected.filter((row) => row.policy === policy)));
  const byHalf = (selected: readonly RunSummary[]) =>
    Object.fromEntries(replayHalves.map((half) => [half, summarize(selected.filter((row) => row.half === half))])) as Record<ReplayHalf, PolicySummary[]>;
  const formats = [...new Set(runs.map((run) => run.format))].sort();
  return {
    contextWindow: options.contextWindow,
    counter: options.counter.name,
    policies: summarize(rows),
    halves: byHalf(rows),
    formats: Object.fromEntries(formats.map((format) => {
      const selected = rows.filter((row) => row.format === format);
      return [format, { policies: summarize(selected), halves: byHalf(selected) }];
    })),
    runs: rows,
  };
}

function systemText(run: RecordedRun): string {
  return [run.system.staticText, run.system.sessionText ?? ""].filter((text) => text !== "").join("\n\n");
}

function errorRow(run: string, policy: string, error: unknown): RunSummary {
  return { ...summarizeReplayedRun({ run, policy, calls: [], references: 0, lostReferences: [], lostLines: [], summaryCalls: [] }), error: error instanceof Error ? error.message : String(error) };
}
