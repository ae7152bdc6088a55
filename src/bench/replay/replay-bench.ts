import type { ModelPricing } from "../../session/pricing.js";
import type { TokenCounter } from "../../tokens/index.js";
import type { ModelRequest } from "../../types/index.js";
import { createPromptMeter } from "./prompt-meter.js";
import type { RecordedRun } from "./recorded-run.js";
import { findReferencePairs } from "./reference-pairs.js";
import { replayPolicies } from "./replay-policies.js";
import { summarizeReplayedRun, summarizePolicy, type PolicySummary, type RunSummary } from "./replay-summary.js";
import { replayRun } from "./replay-run.js";

export interface ReplayBenchOptions {
  contextWindow: number;
  counter: TokenCounter;
  pricing: ModelPricing;
  /** Policy names (see `resolveReplayPolicyNames`), in table order. */
  policies: readonly string[];
  /** Sees every replayed request; called in order, one run and policy at a time. */
  onRequest?: (event: { run: string; policy: string; call: number; request: ModelRequest; promptTokens: number }) => void;
  /** Called after each run with all its policies replayed (for progress). */
  onRunDone?: (run: RecordedRun, done: number) => void;
}

export interface ReplayReport {
  contextWindow: number;
  counter: string;
  policies: PolicySummary[];
  runs: RunSummary[];
}

/**
 * Replays every run under every policy and sums the results per policy. Runs are scored on the
 * same reference pairs for every policy; a policy that throws on a run gets an error row and is
 * left out of its totals, so one bug does not hide the other policies' numbers.
 */
export async function runReplayBench(runs: readonly RecordedRun[], options: ReplayBenchOptions): Promise<ReplayReport> {
  const meter = createPromptMeter(options.counter);
  const factories = replayPolicies();
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
        const policy = factory({ contextWindow: options.contextWindow, meter, clock: () => now });
        const replayed = await replayRun(run, policy, {
          contextWindow: options.contextWindow,
          meter,
          pricing: options.pricing,
          pairs,
          onClock: (time) => (now = time),
          onRequest: (call, request, promptTokens) => options.onRequest?.({ run: run.id, policy: policyName, call, request, promptTokens }),
        });
        const row = summarizeReplayedRun({ ...replayed, policy: policyName });
        // ctxkit's compression policies count what they did (cleared, archived, compacted…).
        if ("stats" in policy && typeof policy.stats === "function") row.policyStats = policy.stats() as unknown;
        rows.push(row);
      } catch (error) {
        rows.push(errorRow(run.id, policyName, error));
      }
    }
    options.onRunDone?.(run, done + 1);
  }
  return {
    contextWindow: options.contextWindow,
    counter: options.counter.name,
    policies: options.policies.map((policy) => summarizePolicy(policy, rows.filter((row) => row.policy === policy))),
    runs: rows,
  };
}

function systemText(run: RecordedRun): string {
  return [run.system.staticText, run.system.sessionText ?? ""].filter((text) => text !== "").join("\n\n");
}

function errorRow(run: string, policy: string, error: unknown): RunSummary {
  return { ...summarizeReplayedRun({ run, policy, calls: [], references: 0, lostReferences: [] }), error: error instanceof Error ? error.message : String(error) };
}
