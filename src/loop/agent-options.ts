import type { Provider } from "../providers/provider.js";
import type { TokenCounter } from "../tokens/token-counter.js";
import type { ContextPolicy } from "../context/context-policy.js";
import type { PromptTokens } from "../tokens/prompt-tokens.js";
import type { Tool } from "../tools/tool.js";
import type {
  BlobStore,
  GenerationSettings,
  RecordedCacheCall,
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
   * Set when a policy asked for an exact approval (the runtime guard: the arguments carry material
   * that came only from external content): why, and the hash an approval must carry
   * (`ToolCallDecision.argumentsHash`). Such a call is asked about even where an allow rule or
   * `--yes` approves everything else.
   */
  guard?: { reasons: string[]; argumentsHash: string; evidence?: unknown };
  /** Set when a policy asked without requiring an exact approval: its reasons. */
  asked?: { reasons: string[] };
}

/** A confirmation's answer: approved or not, and what the person said about it (given to the model). */
export interface ToolCallDecision {
  approved: boolean;
  reason?: string;
  /** For a call the guard flagged: the `guard.argumentsHash` of the exact call approved (any other is not). */
  argumentsHash?: string;
  /**
   * The person stopped the turn (Ctrl-C) instead of answering. The model is then told the call was not
   * run because the turn was stopped, never that the person declined it and "said" `reason`.
   */
  stopped?: boolean;
}

/**
 * Where the agent records what it sends and receives. `SessionWriter` from `ctxkit`'s session store
 * implements it; anything else that does can be passed too.
 */
export interface SessionSink {
  readonly id: string;
  appendMessage(message: Message): void;
  appendRequest(record: { messageCount: number; tail: UserMessage | null; provider: string; model: string; at: string; bodyHash?: string; effort?: string; cacheLifetimeMs?: number | null }): number;
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

/**
 * What `createAgent` takes: at most ten fields (a test counts them). Every mechanism that shapes
 * or gates a call — budgets, the runtime guard, leak withholding, tool search, output caps,
 * repeated-call limits, compression, the status bar — is a `ContextPolicy` in `context`;
 * `assembleAgent` (`ctxkit`) builds the list, starts or resumes the session and calls this.
 */
export interface AgentOptions {
  provider: Provider;
  /** The system prompt: a string, or static + session parts separated by a cache boundary. */
  system: string | SystemPrompt;
  /** The agent's tools. One marked `deferred` needs a policy that routes it (`resolveDeferredTools` adds tool search). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tools of any argument type live in one list
  tools?: Tool<any>[];
  /**
   * Everything that shapes or gates the context, as one list of policies
   * (`createAgent({ context: [createStatusBar(), createCompression({ contextWindow })] })`). Their
   * tools and system sections are added to the prefix; the order their hooks run in and the rules
   * across them are `composeContextPolicies`'s.
   */
  context?: readonly ContextPolicy[];
  settings?: GenerationSettings;
  /** The trajectory to continue from (a loaded session's messages). */
  messages?: Message[];
  /** Records every message, request and usage report; flushed before each model call. */
  session?: SessionSink;
  /**
   * Answers a policy's `ask` and a tool's `requiresConfirmation`. Without it such calls are refused
   * with a message to the model — a library never runs a guarded tool silently.
   */
  confirmToolCall?: (call: ToolCallInfo) => Promise<boolean | ToolCallDecision>;
  /**
   * Checks every request's wire body (`provider.serialize`) against the previous one and reports
   * cache breaks (`cache_break` events; a warning when undeclared). With `promptTokens` (or a provider
   * that renders its own prompt tokens) it also checks the rendered prompt's tokens, which catches
   * chat-template breaks the JSON body cannot show. `strict` ends the run with a `prefix_break` error
   * on an undeclared break. Default: on, lost tokens estimated with the calibrated estimator; `false`
   * turns it off.
   */
  prefixGuard?: false | PrefixGuardSettings;
  /** Limits, storage and the injected clock and ids. */
  runtime?: AgentRuntime;
}

/** How an agent runs: its limits, where it keeps originals, and the clock and id generator it uses. */
export interface AgentRuntime {
  /** Model calls per run before it stops with `max_iterations` (default 50). */
  maxIterations?: number;
  /** Default timeout per tool call in ms (default 120 000); a tool's own `timeoutMs` wins. */
  toolTimeoutMs?: number;
  /**
   * Where the originals that compression moves out of the context are kept (the `recall` tool reads
   * them). Default: in memory. `assembleAgent` uses its session store's `blobs` unless this is given.
   */
  blobStore?: BlobStore;
  /**
   * Every message the session ever recorded, including ones a compaction replaced (a loaded session's
   * `log`), so `recall` by message id finds originals from before a restart.
   */
  messageLog?: readonly Message[];
  /**
   * A resumed session's last model call (a started session's `lastCall`): the first call after the
   * resume is compared with it, so its cache miss is named (`model_changed`, `effort_changed`,
   * `cache_expired`…) like any later call's. `assembleAgent` passes it.
   */
  previousCall?: RecordedCacheCall;
  clock?: () => Date;
  createId?: () => string;
  /**
   * How each tool call runs: given the tool about to execute (after policies and confirmation
   * decided to run it), returns the one to execute instead. The durable layer makes every call a
   * checkpointed step this way; the loop and the policies stay unaware of it. Default: the tool itself.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tools of any argument type
  wrapTool?: (tool: Tool<any>) => Tool<any>;
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
