import type { Provider } from "../providers/provider.js";
import type { TokenCounter } from "../tokens/token-counter.js";
import type { ContextPolicy } from "../context/context-policy.js";
import type { PromptTokens } from "../tokens/prompt-tokens.js";
import type { Tool, ToolOutput } from "../tools/tool.js";
import type { DeferToolsMode, DeferToolsSettings } from "../tools/search/apply-defer-tools.js";
import type { ToolSearchPolicyOptions } from "../tools/search/create-tool-search-policy.js";
import type { RuntimeGuard } from "../security/create-runtime-guard.js";
import type {
  BlobStore,
  Budget,
  GenerationSettings,
  RunBudgetRecord,
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
  /**
   * Set when the runtime guard flagged the call (its arguments carry material that came only from
   * external content): why, and the hash an approval must carry (`ToolCallDecision.argumentsHash`).
   * Such a call is asked about even where an allow rule or `--yes` approves everything else.
   */
  guard?: { reasons: string[]; argumentsHash: string };
}

/** A confirmation's answer: approved or not, and what the person said about it (given to the model). */
export interface ToolCallDecision {
  approved: boolean;
  reason?: string;
  /** For a call the guard flagged: the `guard.argumentsHash` of the exact call approved (any other is not). */
  argumentsHash?: string;
}

export interface AgentHooks {
  /** Runs before a validated call executes; return an output to use it instead of running the tool. */
  beforeToolCall?: (call: ToolCallInfo) => ToolOutput | undefined | Promise<ToolOutput | undefined>;
  /** Runs after a call; return an output to replace the result before it is frozen into the trajectory. */
  afterToolCall?: (call: ToolCallInfo, output: ToolOutput) => ToolOutput | undefined | Promise<ToolOutput | undefined>;
  /** Last look at every request before it is sent; must keep the prefix (a change is a cache break). */
  transformRequest?: (request: ModelRequest) => ModelRequest;
}

/**
 * Where the agent records what it sends and receives. `SessionWriter` from `ctxkit`'s session store
 * implements it; anything else that does can be passed too.
 */
export interface SessionSink {
  readonly id: string;
  appendMessage(message: Message): void;
  appendRequest(record: { messageCount: number; tail: UserMessage | null; provider: string; model: string; at: string; bodyHash?: string }): number;
  /**
   * Records the prefix the agent actually sends (its system prompt and every tool, the policies'
   * included) when it differs from the one the session holds — a declared prefix change.
   */
  recordPrefix?(prefix: { system: Readonly<SystemPrompt>; tools: readonly ToolDefinition[]; provider: string; model: string }, reason: string): void;
  appendUsage(requestIndex: number, usage: Usage): void;
  appendContextEdit(edit: { start: number; end: number; messages: Message[]; reason: string; at: string }): void;
  appendRunStart(record: { runId: string; input: string; at: string; budget?: RunBudgetRecord[] }): void;
  appendRunEnd(record: { runId: string; stopReason: string; usage: Usage; subAgentUsage?: Usage; iterations: number; at: string; error?: { code: string; message: string } }): void;
  flush(): Promise<void>;
}

export interface AgentOptions {
  provider: Provider;
  /** The system prompt: a string, or static + session parts separated by a cache boundary. */
  system: string | SystemPrompt;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tools of any argument type live in one list
  tools?: Tool<any>[];
  /**
   * Which tools to keep out of `tools` and let the model find with `tool_search`: `"auto"` defers all
   * of them when their definitions would take more than ~10 % of the context window, `"all"` always,
   * `"off"` (default) only those marked `deferred: true`. With any deferred tool, `tool_search` and a
   * stable `call_tool` proxy are in `tools` from the first call.
   */
  deferTools?: DeferToolsMode | DeferToolsSettings;
  /** Tool-search settings (matches per search, field boosts). `native` follows the provider's `nativeToolSearch`. */
  toolSearch?: ToolSearchPolicyOptions;
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
   * Checks each call before it runs (`createRuntimeGuard` from `ctxkit/security`): a flagged call
   * needs an approval bound to its exact arguments, whatever `requiresConfirmation` says.
   */
  runtimeGuard?: RuntimeGuard;
  /**
   * Withholds a final answer that repeats the system prompt verbatim (a run of `minChars`, default
   * 80, characters): the run's `finalText` becomes a note and a `system_prompt_leak` warning says
   * why; the trajectory keeps what the model wrote. The output side of the defence against "print
   * your system prompt" — no instruction in the context can turn it off. Streamed text deltas are
   * not held back; a caller that shows them live should show `finalText` instead when it matters.
   */
  withholdSystemPromptLeaks?: boolean | { minChars?: number };
  /**
   * What shapes the context, as one list of policies: the status bar, compression, and your own
   * (`createAgent({ context: [createStatusBar(), createCompression({ contextWindow })] })`). Their
   * tools and system sections are added to the prefix; the order their hooks run in and the rules
   * across them (checkpoints across compaction) are `composeContextPolicies`'s.
   */
  context?: readonly ContextPolicy[];
  /**
   * Where the originals that compression moves out of the context are kept (the `recall` tool reads
   * them). Default: in memory. The CLI uses `createFileBlobStore(<data-dir>/blobs)`.
   */
  blobStore?: BlobStore;
  /**
   * Every message the session ever recorded, including ones a compaction replaced (a loaded session's
   * `log`), so `recall` by message id finds originals from before a restart.
   */
  messageLog?: readonly Message[];
  /** Identical consecutive tool calls before the agent warns the model; one more stops the run (default 3). */
  repeatedCallLimit?: number;
  /** Default timeout per tool call in ms (default 120 000); a tool's own `timeoutMs` wins. */
  toolTimeoutMs?: number;
  /** Most characters of one tool result kept; longer ones keep their start and end (default 1 000 000). */
  maxToolResultCharacters?: number;
  /**
   * Checks every request's wire body (`provider.serialize`) against the previous one and reports
   * cache breaks (`cache_break` events; a warning when undeclared). With `promptTokens` (or a provider
   * that renders its own prompt tokens) it also checks the rendered prompt's tokens, which catches
   * chat-template breaks the JSON body cannot show. `strict` ends the run with a `prefix_break` error
   * on an undeclared break. Default: on, lost tokens estimated with the calibrated estimator; `false`
   * turns it off.
   */
  prefixGuard?: false | PrefixGuardSettings;
  /**
   * Token and cost limits (`createBudget` from `ctxkit/budget`): each run is a task level under it;
   * every call is checked before it is sent (estimated prompt + `maxOutputTokens`, or
   * `assumedOutputTokens` when that is unset) and waits out backpressure near a limit. A `hard`
   * level that would be exceeded ends the run with `budget_exceeded`; its levels' spending is
   * recorded with each run's start in the session.
   */
  budget?: Budget;
  /** Output tokens a budget reserves per call when `settings.maxOutputTokens` is unset (default 4 096). */
  assumedOutputTokens?: number;
  clock?: () => Date;
  createId?: () => string;
}

export interface PrefixGuardSettings {
  strict?: boolean;
  /** Counts lost tokens when no prompt tokens are known (default: the calibrated estimator). */
  counter?: TokenCounter;
  /**
   * The prompt tokens the model sees for a request, when its chat template and tokenizer are known:
   * `"qwen3"` renders Qwen3's template with the exact Qwen3 tokenizer (vLLM, llama.cpp, Ollama serving
   * Qwen3), or pass your own renderer. Default: the provider's `promptTokens`, if it has one.
   */
  promptTokens?: "qwen3" | ((request: ModelRequest) => PromptTokens);
}

export type { ToolCallPart };
export type { ContextEdit, ContextPreparer, ContextState, TailState, ToolResultInfo, ToolResultProcessor } from "../context/context-policy.js";
