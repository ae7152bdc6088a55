import type { Message, ToolCallPart, ToolErrorKind, ToolMessage, Usage } from "../types/index.js";
import type { StablePrefix } from "./stable-prefix.js";

/** What a tool-result processor is told about the call that produced the result. */
export interface ToolResultInfo {
  call: ToolCallPart;
  /** Set when the call failed. */
  errorKind?: ToolErrorKind;
  durationMs: number;
  /** 1 for the first call of this tool in the session, 2 for the second, … */
  callNumber: number;
  /** 1 for the first tool call of any tool in the session, … */
  totalCallNumber: number;
  now: Date;
}

/**
 * Rewrites a tool result once, before it is appended: what it returns is frozen into the
 * trajectory and never re-rendered (timestamps, call numbers, error details, size budgets).
 */
export type ToolResultProcessor = (result: ToolMessage, info: ToolResultInfo) => ToolMessage | Promise<ToolMessage>;

/** What a context preparer sees before each model call. */
export interface ContextState {
  /** The context as it stands (what will be sent, before the tail). */
  messages: readonly Message[];
  prefix: StablePrefix;
  /** Model calls made so far in this run. */
  iteration: number;
  now: Date;
  /** Usage the provider reported for the previous call of this agent, if any. */
  lastUsage?: Usage;
  /** When the previous call was sent (for cache time-to-live reasoning). */
  lastRequestAt?: Date;
  /** Set when the previous attempt of this call failed with a context-overflow error. */
  overflow: boolean;
  signal: AbortSignal;
}

/**
 * A change to the context before a call: `append` adds harness messages (no cache break);
 * `replace` swaps messages start..end for others — a declared cache break, recorded in the session
 * so that a restart replays the same bytes.
 */
export type ContextEdit =
  | { type: "append"; messages: Message[] }
  | { type: "replace"; start: number; end: number; messages: Message[]; reason: string };

export type ContextPreparer = (state: ContextState) => ContextEdit[] | undefined | Promise<ContextEdit[] | undefined>;

/**
 * A context-management policy: what happens to a tool result when it is written, and what happens
 * to the context before each model call. The agent loop drives a policy through its
 * `processToolResult` and `prepareContext` options; `ctxkit replay` drives the same policy over
 * recorded runs, so what is measured is what runs.
 */
export interface ContextPolicy {
  readonly name: string;
  /** Decided once per result, before it is appended and frozen (budgets, previews, noise removal). */
  processToolResult?: ToolResultProcessor;
  /** Before each call: edits to the context (appends, or declared replacements such as compactions). */
  prepareContext?: ContextPreparer;
}
