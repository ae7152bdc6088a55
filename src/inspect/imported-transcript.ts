import type { AssistantMessage, ModelRequest } from "../types/index.js";

/** The recorded-run formats `ctxkit inspect` can read. */
export type TranscriptFormat =
  | "ctxkit"
  | "openai-log"
  | "claude-code"
  | "codex"
  | "mini-swe-agent"
  | "tau-bench"
  | "swe-agent"
  | "openhands"
  | "gemini-cli"
  | "aider"
  | "tau2-bench";

export const TRANSCRIPT_FORMATS: readonly TranscriptFormat[] = [
  "ctxkit",
  "openai-log",
  "claude-code",
  "codex",
  "mini-swe-agent",
  "tau-bench",
  "swe-agent",
  "openhands",
  "gemini-cli",
  "aider",
  "tau2-bench",
];

/**
 * Token counts the provider reported for one call, as recorded. A field is absent when the
 * transcript does not record it (absent is "unknown", never 0). `promptTokens` is the whole prompt,
 * cached and uncached.
 */
export interface ReportedUsage {
  promptTokens?: number;
  cachedTokens?: number;
  cacheWriteTokens?: number;
  /** The part of `cacheWriteTokens` written with a 1-hour lifetime (Anthropic's `cache_creation.ephemeral_1h_input_tokens`). */
  cacheWrite1hTokens?: number;
  completionTokens?: number;
  cost?: number;
  /** Context edits the server reported for this call (`clear_tool_uses_20250919`, `compaction`, …), when recorded. */
  serverEdits?: string[];
}

/** One model call of a recorded run. */
export interface ImportedCall {
  /**
   * What the model saw: `system.staticText` is "" and `tools` is [] when the format does not record
   * them (see `systemKnown`/`toolsKnown`); `cacheBreakpoints` and `settings` are always empty.
   */
  request: ModelRequest;
  /** What the model answered, when recorded. */
  response?: AssistantMessage;
  reportedUsage?: ReportedUsage;
  /** The model this call went to, when the transcript records it per call (a run may switch models). */
  model?: string;
  /** The reasoning effort this call ran with, when the transcript records it per call (Codex's turn_context). */
  effort?: string;
  /**
   * The prompt-cache lifetime this call ran with (ms), when the transcript records it (a ctxkit
   * session); `null` when the provider had none. Absent: inspect assumes one (see explainTranscriptMisses).
   */
  cacheLifetimeMs?: number | null;
  source: { file: string; line?: number };
  /**
   * Set when the transcript itself says this request changed context already sent (a ctxkit
   * `context_edit` or prefix change, a Codex or Claude Code compaction): a cache break here is
   * intended, not a bug.
   */
  declaredBreak?: { reason: string };
}

/**
 * A recorded run in the common model. Message ids are stable across the calls of one transcript
 * (an unchanged message keeps its id), so per-message caches can key on them; they are unique
 * within a transcript, not across transcripts.
 */
export interface ImportedTranscript {
  id: string;
  format: TranscriptFormat;
  file: string;
  model?: string;
  calls: ImportedCall[];
  toolsKnown: boolean;
  systemKnown: boolean;
  meta?: Record<string, unknown>;
  /** What the importer knows about the numbers that the calls cannot show (run totals only, dropped records). */
  notes?: string[];
  /**
   * Set when the file is not valid UTF-8: its first invalid byte (0-based offset) and that byte's line
   * (1-based). Its invalid bytes were read as U+FFFD; `notes` says so too.
   */
  invalidUtf8?: { byte: number; line: number };
}

/** A record that could not be imported; everything else in the file still was. */
export interface ImportProblem {
  file: string;
  line?: number;
  reason: string;
}

export interface ImportResult {
  transcripts: ImportedTranscript[];
  problems: ImportProblem[];
}
