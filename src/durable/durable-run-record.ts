/** What a worker needs to rebuild a run's agent exactly: a kind (which builder) and its JSON input. */
export interface DurableAgentSpec {
  /** `cli` (the flags of `ctxkit run`), or `bench` (the durable benchmark's scripted agent). */
  kind: string;
  input: Record<string, unknown>;
}

export type DurableRunStatus = "queued" | "running" | "needs_confirmation" | "completed" | "failed" | "cancelled";

export interface DurableRunRecord {
  id: string;
  task: string;
  agent: DurableAgentSpec;
  /** The run's session: fixed when submitted, so every attempt writes the same session. */
  sessionId: string;
  /** The shared budget this run spends from (a row of `ctxkit_budgets`), if any. */
  budgetScope?: string;
  status: DurableRunStatus;
  createdAt: string;
  updatedAt: string;
  /** How many times a worker started it (1 + recoveries). */
  attempts: number;
  executor?: string;
  result?: DurableRunResult;
  /** The side-effecting call a crash interrupted, waiting for `ctxkit runs resume`. */
  pausedCall?: PausedCall;
  /**
   * The W3C traceparent the run's spans nest under: the submitter's when it gave one, replaced by the
   * run span's own when a worker first traces it, so the segments after a crash join the same trace.
   */
  traceparent?: string;
}

/** Why a run waits for a person, and on what. */
export interface PausedCall {
  tool: string;
  callKey: string;
  /** `interrupted`: a side effect a crash cut off (default); `confirmation`: a call that asks, as `ctxkit run` would at a terminal; `budget`: an approval budget's question. */
  reason?: "interrupted" | "confirmation" | "budget";
  /** The call's arguments as the model wrote them (cut to 2 000 characters). */
  arguments?: string;
  /** What the policy that asked said. */
  why?: string;
}

export interface DurableRunResult {
  stopReason: string;
  finalText: string;
  iterations: number;
  inputTokens: number;
  outputTokens: number;
  /** Model calls made again after a crash (their step had started but not been recorded). */
  repeatedModelCalls: number;
  error?: { code: string; message: string };
}
