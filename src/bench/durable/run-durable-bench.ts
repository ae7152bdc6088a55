import { availableParallelism } from "node:os";
import { createDatabase } from "../../session/postgres/create-database.js";
import { loadPg } from "../../session/postgres/load-pg.js";
import { runDurableBenchPhase, type PhaseOutcome } from "./durable-bench-phase.js";
import { benchMaxCallTokens } from "./bench-durable-agent.js";
import type { DurableBenchResult, DurableBenchSettings, DurableBudgetPhase } from "./durable-bench-result.js";

export interface DurableBenchOptions extends Partial<Omit<DurableBenchSettings, "workers" | "runs" | "killEveryMs">> {
  /** A server where the bench may create databases (one per phase). */
  connectionString: string;
  workers: number;
  runs: number;
  killEveryMs: number;
  onPhase?: (label: string) => void;
  onProgress?: (done: number, total: number) => void;
}

/**
 * `ctxkit bench durable`: scripted agents (fixed model latency, counted side effects) as durable
 * runs on worker processes. First the throughput at 1, 2 and 4 workers without kills (`scaling`),
 * then `runs` runs on `workers` workers while one is SIGKILLed every `killEveryMs` and replaced,
 * then `budgetRuns` runs spending from one shared budget of about half what they need (from what a
 * run spent at 1 worker), without kills, with them, and with a model that uses 1.5× what its calls
 * reserve (budgetPhasePlan): the limit is reached, and what the model billed past it is the
 * overrun, against the bound the docs state (zero by construction unless calls use more than they reserve).
 */
export async function runDurableBench(options: DurableBenchOptions): Promise<DurableBenchResult> {
  const settings: DurableBenchSettings = {
    workers: options.workers,
    runs: options.runs,
    killEveryMs: options.killEveryMs,
    concurrency: options.concurrency ?? 4,
    steps: options.steps ?? 3,
    modelLatencyMs: options.modelLatencyMs ?? 1_500,
    toolLatencyMs: options.toolLatencyMs ?? 20,
    staleAfterMs: options.staleAfterMs ?? 4_000,
    scalingRuns: options.scalingRuns ?? Math.min(options.runs, 64),
    budgetRuns: options.budgetRuns ?? Math.min(options.runs, 64),
  };
  const startedAt = new Date().toISOString();
  const pgModule = await loadPg();
  const phase = async (label: string, workers: number, runs: number, killEveryMs: number, budget?: { limitTokens: number; useFactor: number }): Promise<PhaseOutcome> => {
    options.onPhase?.(label);
    const url = await createDatabase(options.connectionString, `ctxkit_bench_${label.replace(/\W+/g, "_")}_${Date.now().toString(36)}`);
    const admin = new pgModule.Pool({ connectionString: url, max: 2 });
    admin.on("error", () => undefined);
    try {
      return await runDurableBenchPhase(url, admin, settings, { workers, runs, killEveryMs, deadlineMs: 10 * 60_000, ...(budget ? { budget } : {}), onProgress: (done) => options.onProgress?.(done, runs) });
    } finally {
      await admin.end();
    }
  };
  const scalingPhases: Array<{ workers: number; runsPerMinute: number }> = [];
  let tokensPerRun = 0;
  for (const workers of [1, 2, 4]) {
    const outcome = await phase(`scaling ${workers}`, workers, settings.scalingRuns, 0);
    scalingPhases.push({ workers, runsPerMinute: (outcome.completed / outcome.elapsedMs) * 60_000 });
    if (workers === 1) tokensPerRun = outcome.spentTokens / Math.max(1, outcome.completed);
  }
  const base = scalingPhases[0]!.runsPerMinute;
  const main = await phase("kills", settings.workers, settings.runs, settings.killEveryMs);
  // Half of what the runs need: about half of them complete, the others are refused once it is spent.
  const limitTokens = Math.max(benchMaxCallTokens, Math.round((tokensPerRun * settings.budgetRuns) / 2));
  const budgetPhases: DurableBudgetPhase[] = [];
  for (const { killEveryMs, useFactor, label } of budgetPhasePlan(settings.killEveryMs)) {
    const outcome = await phase(label, settings.workers, settings.budgetRuns, killEveryMs, { limitTokens, useFactor });
    budgetPhases.push({
      killEveryMs,
      useFactor,
      kills: outcome.kills,
      runs: outcome.runs,
      completed: outcome.completed,
      refused: outcome.refused,
      otherOutcomes: outcome.otherOutcomes,
      limitTokens,
      spentTokens: outcome.spentTokens,
      billedTokens: outcome.billedTokens,
      overrunTokens: Math.max(0, outcome.billedTokens - limitTokens),
      maxCallTokens: benchMaxCallTokens,
    });
  }
  return {
    runs: main.runs,
    completed: main.completed,
    lost: main.runs - main.completed,
    resumed: main.resumed,
    duplicateModelCalls: main.duplicateModelCalls,
    duplicateSideEffects: main.duplicateSideEffects,
    budgetOverrunTokens: Math.max(...budgetPhases.map((entry) => entry.overrunTokens)),
    budgetOverrunBoundTokens: settings.workers * settings.concurrency * benchMaxCallTokens,
    budgetPhases,
    recoverySecondsP95: percentile(main.recoverySeconds, 0.95),
    runMsP50: percentile(main.runMs, 0.5),
    runMsP95: percentile(main.runMs, 0.95),
    runsPerMinute: (main.completed / main.elapsedMs) * 60_000,
    scaling: scalingPhases.map((entry) => ({ ...entry, speedup: base === 0 ? 0 : entry.runsPerMinute / base })),
    confirmations: main.confirmations,
    kills: main.kills,
    settings,
    manifest: { node: process.version, platform: `${process.platform}-${process.arch}`, cpus: availableParallelism(), startedAt },
  };
}

/** What a model of the overuse phase uses, against what its call reserved: an estimate 1.5× too low. */
export const benchOveruseFactor = 1.5;

/**
 * The budget phases: without kills, with kills (not when `killEveryMs` is 0: it would repeat the
 * first), then without kills with a model that uses `benchOveruseFactor` × what each call reserved —
 * the only phase where calls use more than they reserve, so a non-zero overrun is measured against
 * the bound.
 */
export function budgetPhasePlan(killEveryMs: number): Array<{ label: string; killEveryMs: number; useFactor: number }> {
  return [
    { label: "shared budget", killEveryMs: 0, useFactor: 1 },
    ...(killEveryMs > 0 ? [{ label: "shared budget, kills", killEveryMs, useFactor: 1 }] : []),
    { label: "shared budget, overuse", killEveryMs: 0, useFactor: benchOveruseFactor },
  ];
}

function percentile(values: readonly number[], share: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)]!;
}
