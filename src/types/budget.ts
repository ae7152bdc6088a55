import type { Usage } from "./usage.js";

/**
 * What happens when a call would take a level over its limit: `hard` refuses the call (the run
 * ends with `budget_exceeded`), `soft` warns and goes on, `approval` asks the budget's `confirm`
 * callback (a refusal, or no callback, ends the run like `hard`).
 */
export type BudgetMode = "hard" | "soft" | "approval";

/** Session (everything an agent's session spent, also before a restart) → task (one `agent.run`) → agent (one sub-agent). */
export type BudgetLevel = "session" | "task" | "agent";

/** The limits of one level; either or both of tokens and cost. Without a limit a level only counts. */
export interface BudgetLimits {
  /** Prompt tokens (cached ones included) plus output tokens. */
  tokens?: number;
  /** US dollars, priced with the budget's `costOf`. */
  costUsd?: number;
  /** Default `hard`. */
  mode?: BudgetMode;
}

export interface BudgetSpend {
  tokens: number;
  costUsd: number;
}

/** One level as it stands: its limits, what it spent, and the larger of its token and cost shares. */
export interface BudgetLevelStatus {
  level: BudgetLevel;
  /** A label for the level (a sub-agent's name), when given. */
  label?: string;
  limits: BudgetLimits;
  mode: BudgetMode;
  spent: BudgetSpend;
  /** spent ÷ limit of the tighter dimension (0 without limits). */
  share: number;
}

/** What the next call may cost at most: the estimated prompt plus the most output it may produce. */
export interface BudgetEstimate {
  promptTokens: number;
  maxOutputTokens: number;
  model: string;
}

/** A level the next call would take over its limit. */
export interface BudgetOverrun {
  status: BudgetLevelStatus;
  dimension: "tokens" | "cost";
  /** What the level would have spent after the call, in the dimension's unit. */
  projected: number;
  limit: number;
}

/** The decision before a call: go on (after `delayMs` of backpressure), or what stands in the way. */
export interface BudgetCheck {
  /** `refuse`: a hard level would be exceeded. `ask`: only approval (and soft) levels would be. */
  action: "proceed" | "refuse" | "ask";
  /** Levels the call would exceed (soft ones included: they get a warning). */
  overruns: BudgetOverrun[];
  /** Backpressure: how long to wait before sending, from the tightest level's share. */
  delayMs: number;
  /** The tightest level's share (0 when no level has a limit). */
  share: number;
}

/** A level's spend crossed a warning threshold (reported once per level and threshold). */
export interface BudgetThresholdCrossing {
  status: BudgetLevelStatus;
  dimension: "tokens" | "cost";
  threshold: number;
}

/** What an `approval` level asks before a call that would exceed it. */
export interface BudgetApprovalRequest {
  overruns: BudgetOverrun[];
  estimate: BudgetEstimate;
}

/**
 * One level of a hierarchical budget (see `createBudget` in `ctxkit/policies`). A task's budget is
 * `budget.startTask()`; a sub-agent's is `parent.child(limits)`: every charge counts at the level
 * that made the call and at each level above it, and a call is checked against all of them.
 */
export interface Budget {
  readonly level: BudgetLevel;
  readonly label?: string;
  readonly parent?: Budget;
  readonly limits: BudgetLimits;
  /** A sub-agent's budget under this one (level `agent`). */
  child(limits?: BudgetLimits, label?: string): Budget;
  /** A new task level under this one, with the task limits the budget was created with. */
  startTask(): Budget;
  /** The innermost level in use: the task this level started last (and so on down), or this level. */
  current(): Budget;
  /** Decides before a call (pure: nothing is counted). */
  check(estimate: BudgetEstimate): BudgetCheck;
  /** Counts one call's usage here and above; returns the thresholds it crossed. */
  charge(usage: Usage, model: string): BudgetThresholdCrossing[];
  /** Lets calls exceed these levels for the rest of their life (after an approval). */
  approve(overruns: readonly BudgetOverrun[]): void;
  /** Soft levels not yet reported as exceeded; marks them reported (a warning once per level). */
  takeSoftOverruns(overruns: readonly BudgetOverrun[]): BudgetOverrun[];
  /** This level and every level above it, innermost first. */
  status(): BudgetLevelStatus[];
  /** Asked before a call that would exceed an `approval` level; absent: refused. */
  readonly confirm?: (request: BudgetApprovalRequest) => Promise<boolean>;
  /** Waits out backpressure (default: a timer; tests and benchmarks pass a virtual clock's). */
  readonly sleep?: (milliseconds: number, signal: AbortSignal) => Promise<void>;
}

/** One budget level as a run's start records it in the session (`RunStartRecord.budget`), for `ctxkit sessions show`. */
export interface RunBudgetRecord {
  level: "session" | "task" | "agent";
  label?: string;
  tokens?: number;
  costUsd?: number;
  mode: "hard" | "soft" | "approval";
  spentTokens: number;
  spentCostUsd: number;
}
