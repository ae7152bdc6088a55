import type { Provider } from "../providers/provider.js";
import type { TokenCounter } from "../tokens/token-counter.js";
import type { ContextPolicy, ContextPreparer, ToolResultProcessor } from "../context/context-policy.js";
import type { Tool, ToolOutput } from "../tools/tool.js";
import type {
  GenerationSettings,
  Message,
  ModelRequest,
  SystemPrompt,
  ToolCallPart,
  ToolDefinition,
  Usage,
  UserMessage,
} from "../types/index.js";

/** What a hook or a confirmation prompt is told about one tool call. */
export interface ToolCallInfo {
  id: string;
  name: string;
  /** Parsed and validated arguments. */
  arguments: unknown;
  /** The exact text the model produced. */
  argumentsText: string;
}

/** A confirmation's answer: approved or not, and what the person said about it (given to the model). */
export interface ToolCallDecision {
  approved: boolean;
  reason?: string;
}

export interface AgentHooks {
  /** Runs before a validated call executes; return an output to use it instead of running the tool. */
  beforeToolCall?: (call: ToolCallInfo) => ToolOutput | undefined | Promise<ToolOutput | undefined>;
  /** Runs after a call; return an output to replace the result before it is frozen into the trajectory. */
  afterToolCall?: (call: ToolCallInfo, output: ToolOutput) => ToolOutput | undefined | Promise<ToolOutput | undefined>;
  /** Last look at every request before it is sent; must keep the prefix (a change is a cache break). */
  transformRequest?: (request: ModelRequest) => ModelRequest;
}

/** What the tail builder sees on every call. */
export interface TailState {
  trajectory: readonly Message[];
  /** Model calls made so far in this run. */
  iteration: number;
  now: Date;
}

/**
 * Where the agent records what it sends and receives. `SessionWriter` from `ctxkit`'s session store
 * implements it; anything else that does can be passed too.
 */
export interface SessionSink {
  readonly id: string;
  appendMessage(message: Message): void;
  /** `sent` is the system prompt and tools the request carried, so the session records what was sent. */
  appendRequest(record: {
    messageCount: number;
    tail: UserMessage | null;
    provider: string;
    model: string;
    at: string;
    sent?: { system: Readonly<SystemPrompt>; tools: readonly ToolDefinition[] };
  }): number;
  appendUsage(requestIndex: number, usage: Usage): void;
  appendContextEdit(edit: { start: number; end: number; messages: Message[]; reason: string; at: string }): void;
  appendRunStart(record: { runId: string; input: string; at: string }): void;
  appendRunEnd(record: { runId: string; stopReason: string; usage: Usage; iterations: number; at: string; error?: { code: string; message: string } }): void;
  flush(): Promise<void>;
}

export interface AgentOptions {
  provider: Provider;
  /** The system prompt: a string, or static + session parts separated by a cache boundary. */
  system: string | SystemPrompt;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tools of any argument type live in one list
  tools?: Tool<any>[];
  /** Model calls per run before it stops with `max_iterations` (default 50). */
  maxIterations?: number;
  settings?: GenerationSettings;
  /** The trajectory to continue from (a loaded session's messages). */
  messages?: Message[];
  /** Records every message, request and usage report; flushed before each model call. */
  session?: SessionSink;
  hooks?: AgentHooks;
  /**
   * Asked before a tool that requires confirmation runs. Without it such calls are refused with a
   * message to the model — a library never runs a guarded tool silently.
   */
  confirmToolCall?: (call: ToolCallInfo) => Promise<boolean | ToolCallDecision>;
  /**
   * A context-management policy (compression, status bar, or several composed with
   * `composeContextPolicies`). Applied before `processToolResult` / `prepareContext` given here.
   */
  contextPolicy?: ContextPolicy;
  /** Rewrites each tool result once before it is frozen into the trajectory (see ToolResultProcessor). */
  processToolResult?: ToolResultProcessor;
  /** Runs before each model call and after a context overflow; may append or replace context (see ContextEdit). */
  prepareContext?: ContextPreparer;
  /**
   * Rewrites the person's message once, when a run creates it, before it is stored (e.g. the status
   * bar's timestamp and time since the last reply). Frozen like a tool result after processing.
   */
  processUserMessage?: (message: UserMessage, info: { trajectory: readonly Message[]; now: Date }) => UserMessage;
  /** Builds the tail message (e.g. a status bar) for each call; it is never stored in the trajectory. */
  tail?: (state: TailState) => string | undefined;
  /** Identical consecutive tool calls before the agent warns the model; one more stops the run (default 3). */
  repeatedCallLimit?: number;
  /** Default timeout per tool call in ms (default 120 000); a tool's own `timeoutMs` wins. */
  toolTimeoutMs?: number;
  /**
   * Checks every request against the previous one and reports cache breaks (`cache_break` events;
   * a warning when undeclared). `strict` ends the run with a `prefix_break` error on an undeclared
   * break. Default: on, counting with the calibrated estimator; `false` turns it off.
   */
  prefixGuard?: false | { strict?: boolean; counter?: TokenCounter };
  clock?: () => Date;
  createId?: () => string;
}

export type { ToolCallPart };
export type { ContextEdit, ContextPreparer, ContextState, ToolResultInfo, ToolResultProcessor } from "../context/context-policy.js";
