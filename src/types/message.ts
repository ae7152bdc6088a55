/**
 * The one internal message model. Providers translate to and from their wire formats at the
 * boundary; everything else in ctxkit speaks only these types. Every shape here is plain JSON so a
 * message can be stored in a session file and replayed byte-identically.
 */

import type { SubAgentRun } from "./sub-agent-run.js";

/** Who produced a message: the person, the model, a tool, or the harness itself (status bar, summaries). */
export type MessageOrigin = "user" | "model" | "tool" | "harness";

export interface MessageMeta {
  /** Stable id, unique within a session. */
  id: string;
  origin: MessageOrigin;
  /** ISO-8601 time the message was created (injected clock, so tests are deterministic). */
  createdAt: string;
  /**
   * Set when the harness derived this message (a preview, a stub, a summary, a status message, a
   * checkpoint). Stored with the message, so later decisions read it here — never from the text, which
   * a model or a tool could also have written. Never sent to a provider.
   */
  derived?: DerivedInfo;
  /** On a tool message whose call ran a sub-agent: the child's session, outcome and usage. */
  subAgent?: SubAgentRun;
  /** Set on a tool result that came from outside and was tagged as data (see `ExternalInfo`). */
  external?: ExternalInfo;
  /**
   * On a `tool_search` result: the deferred tools it returned, best first. The discovery message
   * after it is made from these names, so a restart defines the tools the result promised instead
   * of searching again (an embedding model may not answer the same way twice).
   */
  toolSearch?: ToolSearchRecord;
  /**
   * Set on a message the harness derived from untrusted material (a summary, an archive, a stub, a
   * note, a skill body from an untrusted workspace): where that material came from. A derived text
   * is as untrusted as what it was derived from (issue 24: no path makes tainted text clean).
   */
  provenance?: Provenance;
}

/** What a `tool_search` call returned (see `MessageMeta.toolSearch`). */
export interface ToolSearchRecord {
  names: string[];
}

/** Where a derived message's untrusted material came from: the union of its sources. */
export interface Provenance {
  untrusted: UntrustedSource[];
}

/** One untrusted source: the tool (or place) it came from and how far it is trusted. */
export interface UntrustedSource {
  source: string;
  /** `external`: from outside (a page, a server); `workspace`: files of a workspace the user has not trusted. */
  trust: "external" | "workspace";
}

/**
 * How a tool result from outside was wrapped, decided once when it was created: the tool that
 * produced it, the nonce of its tags, what the neutraliser changed, and the injection phrases
 * screening found (a hint, not a verdict).
 */
export interface ExternalInfo {
  source: string;
  /**
   * What the result was tagged as: `external` (from outside: a page, a server, a sub-agent that read
   * one) or `workspace` (an untrusted repository's files). Per result, so a tool whose output differs
   * per call is judged by this call's. Absent in sessions written before it was recorded.
   */
  trust?: "external" | "workspace";
  nonce: string;
  /** The tool's call number in the session (1 for its first call), as the status bar shows it. */
  callNumber?: number;
  neutralisedMarkers: number;
  hiddenCharacters: number;
  screening: { rule: string; language: string }[];
}

/**
 * What the harness derived a message from. `kind` says what it is; the other fields say where the
 * original went. Unknown kinds (from a newer ctxkit or a user's policy) are kept as they are.
 */
export type DerivedInfo =
  /** An over-budget tool result shown as a frozen head/tail preview; the whole text is blob `blobId`. */
  | { kind: "preview"; blobId: string; originalChars: number }
  /**
   * An old tool result cleared into a stub; the text the model saw is blob `blobId`.
   * `omittedAsShown`: its lines (trimmed) left out because the context showed them (as for an archive).
   */
  | { kind: "stub"; blobId: string; replaces: string; batch: number; omittedAsShown?: string[] }
  /** A tool result (or several, in `replaces`) summarised by one of the seed's compression strategies. */
  | { kind: "compressed"; replaces: string[]; blobIds: string[]; batch?: number }
  /**
   * One line per older turn, replacing those turns. `omittedAsShown`: lines (trimmed) of the turns'
   * results left out because the context already showed them (an earlier archive, an earlier turn
   * of this one); condensing keeps them where they are shown. `tagNonces`: the ids of the
   * `<external_content>` tags its lines of untrusted results are between: only tag lines with one
   * of them are read back as tags (a trusted line may look like one). Absent in older sessions.
   */
  | { kind: "archive"; replaces: string[]; batch: number; omittedAsShown?: string[]; tagNonces?: string[] }
  /**
   * A full compaction's summary of everything between the first request and the recent turns.
   * `keptLines`: the fact lines of the replaced turns shown verbatim after the summary, as archive
   * lines (gist, then indented lines); the next compaction reads them here, not from the text.
   * `tagNonces`: the ids of the tags the kept lines can be between (as for an archive).
   */
  | { kind: "summary"; replaces: string[]; batch: number; keptLines?: string[]; tagNonces?: string[] }
  /** A status-bar message stored in the trajectory (append mode). */
  | { kind: "status" }
  /** State a policy carries across a compaction (the status bar's counts and TODO list, active skills…). */
  | { kind: "checkpoint"; policy: string; data: unknown }
  /** A harness note appended to the trajectory (e.g. an announcement); `policy` names who wrote it. */
  | { kind: "note"; policy: string }
  /** A skill's body brought into the context: by the person's `/name` (`slash`) or the model's `skill` call (`tool`). */
  | { kind: "skill"; name: string; via: "slash" | "tool"; toolCallId?: string }
  /** An MCP server's tool list changed mid-session: the prefixed names it added and removed. */
  | { kind: "mcp_tools"; server: string; added: string[]; removed: string[] }
  /** Full definitions of deferred tools a `tool_search` call (`toolCallId`) found, appended after its result. */
  | { kind: "tool_discovery"; names: string[]; toolCallId: string };

export type DerivedKind = DerivedInfo["kind"];

/** The derived info of a message when it has the given kind (a type guard on the kind). */
export function derivedOf<K extends DerivedKind>(message: { meta: MessageMeta }, kind: K): Extract<DerivedInfo, { kind: K }> | undefined {
  const derived = message.meta.derived;
  return derived?.kind === kind ? (derived as Extract<DerivedInfo, { kind: K }>) : undefined;
}

export interface TextPart {
  type: "text";
  text: string;
}

/**
 * Reasoning the model produced. `signature` (Anthropic) and `redacted` data are opaque provider
 * tokens: they are kept byte-exact and sent back unchanged, because the provider verifies them.
 */
export interface ThinkingPart {
  type: "thinking";
  thinking: string;
  signature?: string;
  /** Anthropic `redacted_thinking` blocks carry only encrypted `data`. */
  redactedData?: string;
  /**
   * Opaque reasoning items as JSON text, sent back unchanged: OpenRouter's `reasoning_details`
   * (Anthropic signatures, OpenAI encrypted reasoning), which the upstream verifies in a tool loop.
   */
  providerDetails?: string;
}

export interface ToolCallPart {
  type: "tool_call";
  id: string;
  name: string;
  /** The arguments exactly as the model produced them (may be invalid JSON). Replayed verbatim. */
  argumentsText: string;
  /** Parsed arguments, or undefined when `argumentsText` is not valid JSON. */
  arguments: unknown;
}

/**
 * A content block the provider produced and ran on its side — Anthropic's `server_tool_use` and its
 * `*_tool_result` (tool search, web search), the Responses API's tool-search and compaction items — kept as the exact JSON to send back: the API requires
 * these blocks unchanged in the next request ("tool_reference blocks are automatically expanded …
 * throughout entire conversation history"). Other providers leave it out.
 */
export interface ProviderBlockPart {
  type: "provider_block";
  /** `openai`: a Responses output item (tool search call and output, compaction, web search). */
  provider: "anthropic" | "openai";
  /** The block as JSON text, exactly as it is sent back. */
  block: string;
}

export type AssistantPart = TextPart | ThinkingPart | ToolCallPart | ProviderBlockPart;

export interface SystemMessage {
  role: "system";
  content: string;
  meta: MessageMeta;
}

export interface UserMessage {
  role: "user";
  content: string;
  meta: MessageMeta;
}

/**
 * Why one model response ended, the same for every provider. `paused`: the server stopped a turn
 * it was still working on (Anthropic's `pause_turn`, when its server-side tool loop reached its
 * iteration limit); the turn is not over, and the next request, which carries this message
 * unchanged as the last one, lets the model go on.
 */
export type StopReason = "stop" | "tool_calls" | "length" | "content_filter" | "paused" | "aborted" | "error";

export interface AssistantMessage {
  role: "assistant";
  content: AssistantPart[];
  meta: MessageMeta;
  /** Unified stop reason plus the provider's raw value, for debugging vendor quirks. */
  stopReason?: StopReason;
  rawStopReason?: string;
}

export interface ToolMessage {
  role: "tool";
  toolCallId: string;
  toolName: string;
  content: string;
  isError: boolean;
  meta: MessageMeta;
}

export type Message = SystemMessage | UserMessage | AssistantMessage | ToolMessage;

export function textOf(message: AssistantMessage): string {
  return message.content
    .filter((part): part is TextPart => part.type === "text")
    .map((part) => part.text)
    .join("");
}

export function toolCallsOf(message: AssistantMessage): ToolCallPart[] {
  return message.content.filter((part): part is ToolCallPart => part.type === "tool_call");
}

export function thinkingOf(message: AssistantMessage): ThinkingPart[] {
  return message.content.filter((part): part is ThinkingPart => part.type === "thinking");
}
