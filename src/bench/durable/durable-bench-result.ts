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
  /** Tokens spent past the shared budget's limit, and the documented bound (calls in flight × max call size). */
  budgetOverrunTokens: number;
  budgetOverrunBoundTokens: number;
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
}
