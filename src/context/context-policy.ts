import type { AssistantMessage, Message, StoredBlob, Tool, ToolCallPart, ToolErrorKind, ToolMessage, ToolSource, Usage, UserMessage } from "../types/index.js";
import type { CallGate, CallGateState, ChildAgentInfo, FinalTextInfo, FinalTextVerdict, PolicyInheritance, PolicyWarning, RunStartContribution, ToolCallCheck, ToolCallVerdict } from "./policy-gates.js";
import type { StablePrefix } from "./stable-prefix.js";
import type { ToolDefinition } from "../types/index.js";

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
  /** Where the tool's output comes from (`Tool.source`; undefined when no such tool ran). */
  source?: ToolSource;
}

/** A processed result plus the blobs the loop must store before it is appended (a preview's original). */
export interface ProcessedToolResult {
  message: ToolMessage;
  blobs: StoredBlob[];
}

/**
 * Rewrites a tool result once, before it is appended: what it returns is frozen into the
 * trajectory and never re-rendered (timestamps, call numbers, error details, size budgets).
 */
export type ToolResultProcessor = (
  result: ToolMessage,
  info: ToolResultInfo,
) => ToolMessage | ProcessedToolResult | Promise<ToolMessage | ProcessedToolResult>;

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
 * so that a restart replays the same bytes. `blobs` are stored by the loop when it applies the edit
 * (the originals a stub or summary points to), so a plan that is never applied writes nothing.
 */
export type ContextEdit =
  | { type: "append"; messages: Message[]; blobs?: StoredBlob[] }
  | { type: "replace"; start: number; end: number; messages: Message[]; reason: string; blobs?: StoredBlob[] };

export type ContextPreparer = (state: ContextState) => ContextEdit[] | undefined | Promise<ContextEdit[] | undefined>;

/** What a tail builder sees on every call. */
export interface TailState {
  trajectory: readonly Message[];
  /** Model calls made so far in this run. */
  iteration: number;
  now: Date;
}

/** What a user-message processor is told. */
export interface UserMessageInfo {
  trajectory: readonly Message[];
  now: Date;
}

/**
 * Where a tool call goes before it is validated: another call to run in its place, checked and run
 * exactly as if the model had made it (a proxy's target), or an error result for the model. `tool`
 * runs the call when the agent's own tools lack it (one a server added mid-session); its schema is
 * then compiled on first use.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tools of any argument type
export type ToolCallRoute = { type: "call"; call: ToolCallPart; tool?: Tool<any> } | { type: "error"; kind: ToolErrorKind; message: string };

/** Routes one tool call; undefined leaves it as it is. `messages` is the trajectory when the call runs. */
export type ToolCallRouter = (call: ToolCallPart, info: { messages: readonly Message[] }) => ToolCallRoute | undefined;

/** What a policy's stable system section is decided from, once, when the agent is created. */
export interface SystemSectionInput {
  /** Names of every tool the agent sends (the user's and every policy's), sorted. */
  toolNames: readonly string[];
}

/**
 * Everything that shapes what the model sees plugs in as a context policy: the status bar,
 * compression, and later skills, budgets and source tags. Every hook is optional.
 * `composeContextPolicies` (and `createAgent({ context: [...] })`) owns the order in which hooks of
 * several policies run and the rules that cut across them — see its documentation.
 */
export interface ContextPolicy {
  readonly name: string;
  /**
   * Where this policy runs relative to others (lower first; default 0; equal values keep list
   * order). Compression uses -100 so the status bar (+100) describes the context compression left
   * and stamps the results compression budgeted.
   */
  readonly order?: number;
  /** Tools this policy adds to the agent (e.g. the status bar's TODO tools, compression's `recall`). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tools of any argument type live in one list
  readonly tools?: readonly Tool<any>[];
  /**
   * A stable section for the session part of the system prompt, decided once when the agent is
   * created (never per call — the prefix must stay byte-stable). Return undefined for none.
   */
  system?(input: SystemSectionInput): string | undefined;
  /** Rewrites the person's message once, when a run creates it, before it is stored and frozen. */
  processUserMessage?(message: UserMessage, info: UserMessageInfo): UserMessage;
  /** Decided once per result, before it is appended and frozen (budgets, previews, noise removal). */
  processToolResult?: ToolResultProcessor;
  /** Routes a tool call before validation (the tool-search proxy `call_tool`, deferred tools not found yet). */
  routeToolCall?: ToolCallRouter;
  /** Before each call: edits to the context (appends, or declared replacements such as compactions). */
  prepareContext?: ContextPreparer;
  /** Text for the request's tail (never stored). Tails of several policies share one message. */
  tail?(state: TailState): string | undefined;
  /**
   * A harness message carrying this policy's state across a compaction that removes part of the
   * trajectory (counts, TODO lists, active skills): `messages` is the context up to the end of the
   * removed part. The composer puts it right after the replacement. Undefined: nothing to carry.
   */
  checkpoint?(messages: readonly Message[], now: Date, id: string): UserMessage | undefined;
  /**
   * Tool definitions sent for the provider to search on its side (Anthropic's native tool search,
   * `defer_loading`), decided once like `tools`. Part of every request, never of `tools`.
   */
  readonly deferredTools?: readonly ToolDefinition[];
  /** When a run starts: what this policy adds to the run's start record (a budget's levels). */
  startRun?(): RunStartContribution | undefined;
  /** Before each model call, with the request as it will be sent: allow, wait (backpressure) or refuse (ends the run). */
  beforeCall?: (state: CallGateState) => CallGate | Promise<CallGate>;
  /** After each model call that reported usage (a budget charges it); warnings become `warning` events. */
  afterCall?(usage: Usage, info: { model: string }): PolicyWarning[] | undefined;
  /**
   * On each validated tool call, before it runs: allow, ask the person (an approval bound to the
   * exact call when `exact`), or refuse with a reason the model sees (and optionally stop the run).
   */
  onToolCall?: (check: ToolCallCheck) => ToolCallVerdict | Promise<ToolCallVerdict>;
  /**
   * On an answer without tool calls, before the run ends: a reason to send the next request in the
   * same run instead (the server paused the turn, e.g. Anthropic's `stop_reason: "compaction"`),
   * or undefined to end it. That request ends with the message and carries no tail (the status bar
   * after it would be a new user turn). `maxIterations` still bounds the run.
   */
  continueTurn?(message: AssistantMessage): string | undefined;
  /** On the run's final answer: replace the text the caller gets (the trajectory keeps what the model wrote). */
  onFinalText?(text: string, info: FinalTextInfo): FinalTextVerdict | undefined;
  /**
   * What a child agent (a `task` sub-agent or a fork) gets of this policy: `share` this very
   * instance, a `copy` from `forChild` (a fresh counter, a share of a budget), or `never`. Absent
   * counts as `never`; every shipped policy declares it (a test lists them).
   */
  readonly inherit?: PolicyInheritance;
  /** The child's copy when `inherit` is `copy` (undefined: the child gets none). */
  forChild?(child: ChildAgentInfo): ContextPolicy | undefined;
}

/** Normalises what a processor returned. */
export function toProcessedToolResult(value: ToolMessage | ProcessedToolResult): ProcessedToolResult {
  return "message" in value && "blobs" in value ? value : { message: value as ToolMessage, blobs: [] };
}
