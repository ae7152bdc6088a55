/** What `ctxkit bench durable --json` prints last (the contract) and writes. */
export interface DurableBenchResult {
  runs: number;
  completed: number;
  /** Runs that did not complete by the end (a lost run is a bug). */
  lost: number;
  /** Runs that a worker started more than once (after a kill). */
  resumed: number;
  /** Model calls made again because their worker died mid-call (counted, allowed). */
  duplicateModelCalls: number;
  /** Tool side effects that happened more than once for one call (must be 0). */
  duplicateSideEffects: number;
  /**
   * The most tokens the model billed past a shared budget's limit, over the budget phases (whose
   * runs need about twice the limit), and the documented bound: the calls that can be in flight
   * (workers × concurrency: the bench's agent has no sub-agents and no compaction calls) × the most
   * one call may use.
   */
  budgetOverrunTokens: number;
  budgetOverrunBoundTokens: number;
  /** The budget phases: runs on `workers` workers spending from one scope they exhaust, without kills, then with them. */
  budgetPhases: DurableBudgetPhase[];
  /** From a SIGKILL until every run the killed worker held was taken over by another worker. */
  recoverySecondsP95: number;
  runMsP50: number;
  runMsP95: number;
  runsPerMinute: number;
  scaling: Array<{ workers: number; runsPerMinute: number; speedup: number }>;
  /** How the interrupted side-effecting calls were answered (the bench checks whether the effect happened). */
  confirmations: { rerun: number; skip: number };
  kills: number;
  settings: DurableBenchSettings;
  manifest: { node: string; platform: string; cpus: number; startedAt: string };
}

export interface DurableBudgetPhase {
  /** 0: no worker killed. */
  killEveryMs: number;
  /**
   * What each model call used against what it reserved: 1 (≤ its reservation, by construction: the
   * bookkeeping holding) or 1.5 (the overuse phase: the overrun against its bound).
   */
  useFactor: number;
  kills: number;
  runs: number;
  completed: number;
  /** Runs refused a call by the budget (failed with `budget_exceeded`). */
  refused: number;
  /** The other runs, by status (and error code when failed), so that every run is accounted for: `{}` when none. */
  otherOutcomes: Record<string, number>;
  limitTokens: number;
  /** What the scope's ledger counted (a killed attempt's reservation counted in full). */
  spentTokens: number;
  /** What the model billed: every call attempt, as it started, those a kill cut off included. */
  billedTokens: number;
  /** Billed past the limit (0 when under it). */
  overrunTokens: number;
  /** The most one call may use (what a call reserves at most). */
  maxCallTokens: number;
}

export interface DurableBenchSettings {
  workers: number;
  runs: number;
  killEveryMs: number;
  concurrency: number;
  steps: number;
  modelLatencyMs: number;
  toolLatencyMs: number;
  staleAfterMs: number;
  scalingRuns: number;
  /** Runs in the budget phase. */
  budgetRuns: number;
}
