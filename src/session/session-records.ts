import type { Message, RunBudgetRecord, RunStopReason, SystemPrompt, ToolDefinition, Usage, UserMessage } from "../types/index.js";

/** The `format` value of every ctxkit session header; anything else is not our file. */
export const SESSION_FORMAT = "ctxkit-session";

/**
 * The format version this ctxkit writes and the newest it reads. Bump it only with a loader for
 * every older version and a fixture of it under `fixtures/` (v1-*.jsonl must load forever).
 */
export const SESSION_FORMAT_VERSION = 4;

/**
 * Versions this ctxkit reads. v2 added `context_edit` records (compaction, cleared tool results);
 * v3 added `bodyHash` to request records and `meta.derived` to messages the harness derived (older
 * files get their derived metadata on load, see `migrateDerivedMetadata`); v4 added a checksum to
 * every record (`sum`, see record-checksum.ts), so a line edited into another valid value is named.
 *
 * A value added to a closed list within a version is not a new version: `run_end`'s `budget_exceeded`
 * (v3) and a message's `stopReason: "paused"` (v4, Anthropic's pause_turn). Bumping would make every
 * new file unreadable to an older ctxkit for a value few files hold; instead an older ctxkit refuses
 * only a file that holds one, as `session_corrupt` naming the line. Such a file is not damaged: read
 * it with this ctxkit rather than removing the line, which would drop a message the requests count.
 */
export const READABLE_SESSION_VERSIONS: readonly number[] = [1, 2, 3, 4];

/** Line 1 of every session file. */
export interface HeaderRecord {
  type: "header";
  format: typeof SESSION_FORMAT;
  version: number;
  id: string;
  createdAt: string;
  /** Absolute path of the workspace the session ran in, when it had one. */
  workspace?: string;
}

/** The stable prefix in force from this line on: written at session start and at each declared cache break. */
export interface PrefixRecord {
  type: "prefix";
  system: SystemPrompt;
  tools: ToolDefinition[];
  provider: string;
  model: string;
  /** Why the prefix changed (absent on the first prefix of a session). */
  reason?: string;
  /**
   * Where the context policies' sections begin in `system.sessionText` (a character index; its length
   * when they added none): a resume takes the caller's part from here, not by reading the text, so an
   * AGENTS.md that holds a section's heading is never cut. Absent in files written before it was
   * recorded and in prefixes a caller recorded without it; optional, so the format version stays.
   */
  policySectionsAt?: number;
}

/** One trajectory message, exactly as it was sent or received. */
export interface MessageRecord {
  type: "message";
  message: Message;
}

/**
 * What model call `index` sent: the prefix in force, the first `messageCount` trajectory messages
 * and `tail`. Only counts are stored, because the trajectory is append-only and already in the file.
 */
export interface RequestRecord {
  type: "request";
  index: number;
  messageCount: number;
  tail: UserMessage | null;
  provider: string;
  model: string;
  at: string;
  /**
   * `sha256:<hex>` of the exact wire body sent (v3). Rebuilding the request and serialising it with
   * the same provider must give the same hash; a difference means the provider's code now writes
   * different bytes for old messages, which would break the prompt cache of a resumed session.
   */
  bodyHash?: string;
  /** The reasoning effort the call went out with, when the provider sends one: a change starts a new prompt cache. */
  effort?: string;
  /**
   * The provider's prompt-cache lifetime in force for the call, in ms (Anthropic's `ttl`, OpenAI's
   * retention); `null` when the provider names none (a local server keeps a prefix until it evicts
   * it). Absent in files written before it was recorded: readers assume the lifetime they would
   * for any transcript. An optional field, so the format version stays (older readers ignore it).
   */
  cacheLifetimeMs?: number | null;
}

/** Token usage the provider reported for request `request`. */
export interface UsageRecord {
  type: "usage";
  request: number;
  usage: Usage;
}

/**
 * A declared change to the context already sent (v2): messages `start`..`end` (exclusive) of the
 * context as it stood are replaced by `messages` — a compaction, a summary, cleared tool results.
 * The originals stay in the file as their `message` records, so nothing is lost and a restart
 * replays exactly the same bytes. Later `message` records append to the edited context.
 */
export interface ContextEditRecord {
  type: "context_edit";
  start: number;
  end: number;
  messages: Message[];
  reason: string;
  at: string;
}

export interface RunStartRecord {
  type: "run_start";
  runId: string;
  input: string;
  at: string;
  /**
   * The budget levels in force for the run (innermost first: task, then session or agent), and
   * what each had spent when it started, so `ctxkit sessions show` can print spent against limits.
   */
  budget?: RunBudgetRecord[];
}


export interface RunEndRecord {
  type: "run_end";
  runId: string;
  stopReason: RunStopReason;
  /** The run's own and its sub-agents' tokens together. */
  usage: Usage;
  /** The sub-agents' part of `usage` (absent when none ran; older files never have it). */
  subAgentUsage?: Usage;
  iterations: number;
  at: string;
  error?: { code: string; message: string };
}

export type SessionRecord =
  | HeaderRecord
  | PrefixRecord
  | MessageRecord
  | RequestRecord
  | UsageRecord
  | ContextEditRecord
  | RunStartRecord
  | RunEndRecord;

export type SessionRecordType = SessionRecord["type"];

/** The stable prefix as a caller hands it in (a frozen `StablePrefix` plus the provider and model fits). */
export interface SessionPrefix {
  system: Readonly<SystemPrompt>;
  tools: readonly ToolDefinition[];
  provider: string;
  model: string;
  /** See `PrefixRecord.policySectionsAt`. */
  policySectionsAt?: number;
}

/** The record a prefix is written as (`reason` for a change after the start). */
export function prefixRecordOf(prefix: SessionPrefix, reason?: string): PrefixRecord {
  const { system, tools, provider, model, policySectionsAt } = prefix;
  return { type: "prefix", system: { ...system }, tools: [...tools], provider, model, ...(reason === undefined ? {} : { reason }), ...(policySectionsAt === undefined ? {} : { policySectionsAt }) };
}

export type { RunBudgetRecord };
