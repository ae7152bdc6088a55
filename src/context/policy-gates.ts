import type { AgentWarningCode, BudgetLimits, Message, ModelRequest, RunBudgetRecord, RunError, RunStopReason, SystemPrompt, Tool, ToolCallPart, ToolErrorKind } from "../types/index.js";

/** A warning a policy hands the loop; it becomes a `warning` event and the run goes on. */
export interface PolicyWarning {
  code: AgentWarningCode;
  message: string;
}

/** Ends the run: the stop reason the run reports and the error it carries. */
export interface PolicyStop {
  stopReason: Exclude<RunStopReason, "final_answer">;
  error: RunError;
}

/** What a call gate sees before each model call. */
export interface CallGateState {
  /** The request exactly as it will be sent. */
  readonly request: ModelRequest;
  /** The request's wire body (`provider.serialize(request).body`), serialised once on first use. */
  body(): string;
  readonly model: string;
  readonly turn: number;
  readonly signal: AbortSignal;
}

/**
 * A call gate's answer: send the call, wait `delayMs` first (backpressure; the loop emits a
 * `backpressure` event), or refuse it, which ends the run with `stop`.
 */
export type CallGate =
  | { action: "allow"; warnings?: PolicyWarning[] }
  | { action: "wait"; delayMs: number; share: number; warnings?: PolicyWarning[]; sleep?: (milliseconds: number, signal: AbortSignal) => Promise<void> }
  | { action: "refuse"; stop: PolicyStop; warnings?: PolicyWarning[] };

/** What a tool-call hook sees about one validated call, before it runs. */
export interface ToolCallCheck {
  readonly call: ToolCallPart;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tools of any argument type
  readonly tool: Tool<any>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tools of any argument type
  readonly tools: ReadonlyMap<string, Tool<any>>;
  /** The trajectory when the call runs. */
  readonly messages: readonly Message[];
  readonly system: Readonly<SystemPrompt>;
  /** `hashToolCall(name, arguments)`: what an approval of exactly this call carries. */
  readonly argumentsHash: string;
}

/**
 * A tool-call hook's answer. `ask` goes to the agent's `confirmToolCall`; with `exact` only an
 * approval carrying this call's `argumentsHash` counts (a bare `true` does not), and the person is
 * asked even where an allow rule or `--yes` approves everything else. `refuse` gives the model
 * `message` as the call's error result; `stop` also ends the run after this turn. `allow` with
 * `approved` gives a tool that asks for confirmation its approval without asking (an allow list,
 * `--yes`); it never overrides another policy's `ask` or `refuse`.
 */
export type ToolCallVerdict =
  | { action: "allow"; approved?: boolean }
  | {
      action: "ask";
      /** Why the call needs the person (shown to them, and recorded). */
      reasons: string[];
      /** What backs the reasons (taint findings…): data, for a record or a trace. */
      evidence?: unknown;
      exact: boolean;
      /** The model's error result when the call is not approved; `said` is the person's reason, if any. */
      refusal: (answer: { said?: string; hasHandler: boolean }) => string;
    }
  | { action: "refuse"; message: string; kind?: ToolErrorKind; stop?: PolicyStop; warnings?: PolicyWarning[] };

export interface FinalTextInfo {
  readonly system: Readonly<SystemPrompt>;
}

/** The text the run returns instead of the model's, and why. */
export interface FinalTextVerdict {
  text: string;
  warnings?: PolicyWarning[];
}

/** What a run's start record gets from a policy. */
export interface RunStartContribution {
  budget?: RunBudgetRecord[];
}

/** How a child agent inherits a policy (see `ContextPolicy.inherit`). */
export type PolicyInheritance = "share" | "copy" | "never";

/** The child a policy is asked to give a copy to. */
export interface ChildAgentInfo {
  /** `task`: an isolated sub-agent with its own prompt and tools; `fork`: a copy of the parent. */
  kind: "task" | "fork";
  /** The sub-agent definition's name. */
  name: string;
  /** The child's own budget limits (a sub-agent definition's `budget`). */
  budget?: BudgetLimits;
}
