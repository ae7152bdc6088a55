import type { Message, ToolSearchRecord } from "./message.js";
import type { BlobReader } from "./blob.js";
import type { GenerationSettings, SystemPrompt } from "./model-request.js";
import type { SubAgentRun } from "./sub-agent-run.js";

/** A JSON Schema object (draft 2020-12 / draft-07 subset that providers accept). */
export type JsonSchema = { [key: string]: unknown };

/** What the model sees of a tool: a name, a description written for the model, and its parameters. */
export interface ToolDefinition {
  name: string;
  description: string;
  parameters: JsonSchema;
}

/** A tool's failure kind, used to write a helpful error result for the model. */
export type ToolErrorKind =
  | "not_found"
  | "permission"
  | "timeout"
  | "invalid_arguments"
  | "unknown_tool"
  | "rejected"
  | "failed";

export interface ToolContext {
  /** Aborted when the run is aborted or the tool's timeout passes. */
  signal: AbortSignal;
  toolCallId: string;
  /** The arguments exactly as the model wrote them (e.g. to tell `100.0` from `100`). */
  argumentsText?: string;
  /**
   * The trajectory when the call runs, read-only: it ends with the assistant message that made this
   * call; results of earlier calls of the same turn are not in it yet. Lets a tool derive its state
   * from the conversation (the TODO tools) instead of keeping it where a restart would lose it.
   */
  messages?: readonly Message[];
  /** The agent's blob store (read side): what compression moved out of the context, by blob id. */
  blobs?: BlobReader;
  /** Finds any message of the session by id, also one a compaction replaced (for `recall`). */
  findMessage?: (id: string) => Message | undefined | Promise<Message | undefined>;
  /**
   * The agent making the call, as it sends every request: its system prompt and every tool (the
   * policies' included) byte for byte. A fork sub-agent starts from exactly this prefix.
   */
  agent?: AgentPrefixView;
}

/** The calling agent's prefix and executable tools (see `ToolContext.agent`). */
export interface AgentPrefixView {
  readonly system: Readonly<SystemPrompt>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tools of any argument type live in one list
  readonly tools: readonly Tool<any>[];
  readonly settings?: GenerationSettings;
  /**
   * The calling agent's context policies (`ContextPolicy[]` from `ctxkit`, typed loosely here
   * because types sit below context): a child gets each one as its `inherit` rule says.
   */
  readonly policies?: readonly { readonly name: string }[];
}

/**
 * Tools that appear or disappear after the agent was created (an MCP server's
 * `notifications/tools/list_changed`). They never join `tools` — the wire prefix stays byte-identical —
 * but the tool-search policy reads this set on every call: added tools become searchable and callable
 * through `call_tool`, removed ones answer with an error result. Made by `createLateToolSet`.
 */
export interface LateToolSet {
  /** The tools added so far and still offered, in the order they came. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tools of any argument type live in one list
  readonly tools: readonly Tool<any>[];
  /** Names no longer offered (added late or there from the start); a re-added name leaves this set. */
  readonly removed: ReadonlySet<string>;
  /** Grows on every change that did something, so readers know when to rebuild an index. */
  readonly version: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see tools
  update(change: { added: readonly Tool<any>[]; removed: readonly string[] }): void;
}

/** What a tool returns: text for the model, flagged as an error when the call failed. */
export interface ToolOutput {
  content: string;
  isError?: boolean;
  /** Why the call failed, when it did (set by the loop for failures it detects, and for ToolError throws). */
  errorKind?: ToolErrorKind;
  /** Set by a tool that ran a sub-agent: the loop records the link and adds its usage to the run's. */
  subAgent?: SubAgentRun;
  /** Where this output came from, when it differs per call from the tool's `source` (a sub-agent's answer). */
  source?: ToolSource;
  /** Set by `tool_search`: the tools it returned, stored on the result message's `meta.toolSearch`. */
  toolSearch?: ToolSearchRecord;
}

/**
 * An executable tool: what the model sees (`ToolDefinition`) plus how to run it.
 * A tool may throw; the loop turns the throw into an error tool result for the model.
 */
export interface Tool<Args = Record<string, unknown>> extends ToolDefinition {
  execute(args: Args, context: ToolContext): Promise<ToolOutput | string>;
  /**
   * Whether this tool may run at the same time as other calls of the same turn. Read-only tools
   * are; tools that change the world (writes, shell) default to running alone, in call order.
   */
  parallelSafe?: boolean;
  /** Milliseconds before the call is aborted and reported to the model as a timeout (default 120 s). */
  timeoutMs?: number;
  /** Whether the user must approve a call before it runs (decided per call when a function). */
  requiresConfirmation?: boolean | ((args: Args) => boolean);
  /**
   * Where this tool's output comes from: ctxkit's own state or words (`trusted`: a TODO list, a
   * write's "Created x (6 bytes written)."), files the user pointed at (`workspace`, the default), or
   * anything from outside — the web, MCP servers, mail (`external`). External output is data to the
   * model, never instructions; source tags wrap it (and workspace output, unless the workspace is
   * trusted). A tool whose output quotes what it read or wrote is not `trusted`.
   */
  source?: ToolSource;
  /**
   * What a call can do to the world: only look (`read`), change files (`write`), run programs
   * (`exec`) or send something out (`send`). Default: `read` for parallel-safe tools, `write` otherwise.
   */
  risk?: ToolRisk;
  /**
   * Running the same call twice has the same effect as once (a write of fixed content, a PUT). A
   * durable run re-runs such a call after a crash; any other call that changes the world and was
   * interrupted pauses the run for a person instead. Default false.
   */
  idempotent?: boolean;
  /**
   * Kept out of the `tools` array the model sees from the first call; the model finds it with
   * `tool_search`, which appends its definition to the trajectory (the prefix never changes).
   */
  deferred?: boolean;
}

/** Where a tool's output comes from (see `Tool.source`). */
export type ToolSource = "trusted" | "workspace" | "external";

/** What a tool call can do to the world (see `Tool.risk`). */
export type ToolRisk = "read" | "write" | "exec" | "send";


