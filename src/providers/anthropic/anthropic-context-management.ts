import { ConfigError } from "../../types/index.js";

/**
 * Anthropic's server-side context management (https://docs.anthropic.com/en/docs/build-with-claude/context-editing
 * and …/compaction): the API edits the prompt on its side before sampling. ctxkit keeps sending the
 * whole append-only trajectory (its own bytes never change); what the server cleared or summarised
 * comes back in `context_management.applied_edits` and `usage.iterations`, and the call after an
 * edit cannot reuse the cache from before it — a break the server declares, not a bug.
 */
export interface AnthropicContextManagement {
  /** `clear_tool_uses_20250919`: past `trigger`, old tool results (and with `clearToolInputs` their calls' inputs) are replaced by a placeholder. */
  clearToolUses?: {
    /** When clearing starts (default 100 000 input tokens). */
    trigger?: { type: "input_tokens" | "tool_uses"; value: number };
    /** How many recent tool uses stay (default 3). */
    keep?: { type: "tool_uses"; value: number };
    /** Clear at least this many tokens each time, so the cache break pays for itself. */
    clearAtLeast?: { type: "input_tokens"; value: number };
    /** Tools whose results are never cleared. */
    excludeTools?: string[];
    clearToolInputs?: boolean;
  };
  /** `clear_thinking_20251015`: thinking blocks of earlier turns are dropped; `keep` turns stay (or "all"). */
  clearThinking?: { keep?: { type: "thinking_turns"; value: number } | "all" };
  /** `compact_20260112`: past `trigger`, the server summarises the conversation into a `compaction` block. */
  compact?: {
    /** Default 150 000 input tokens. */
    trigger?: { type: "input_tokens"; value: number };
    /** Stop after writing the summary (stop_reason "compaction"), so the caller can add to it before the answer. */
    pauseAfterCompaction?: boolean;
    /** Replaces the default summarisation prompt. */
    instructions?: string;
  };
}

/** "trigger … Must be at least 50,000 tokens" (the parameters table of Anthropic's compaction guide). */
export const minimumCompactionTrigger = 50_000;

/**
 * The settings of one call that asked to compact now (`request.serverCompaction`). The API has no
 * "compact now" switch, only a trigger, so the compact edit (the configured one, else the default)
 * goes out with the lowest trigger the API accepts: a prompt past it is summarised in this call.
 * `pause_after_compaction` stays as configured. Instructions given with the request replace the
 * configured ones for this call. A prompt under the minimum is not compacted (the loop warns).
 */
export function compactionNow(settings: AnthropicContextManagement | undefined, request: { instructions?: string }): AnthropicContextManagement {
  const compact = settings?.compact ?? {};
  const instructions = request.instructions ?? compact.instructions;
  return {
    ...settings,
    compact: {
      ...compact,
      trigger: { type: "input_tokens", value: minimumCompactionTrigger },
      ...(instructions === undefined ? {} : { instructions }),
    },
  };
}

/** The beta each edit needs (context editing and compaction are separate betas). */
export function contextManagementBetas(settings: AnthropicContextManagement): string[] {
  const betas: string[] = [];
  if (settings.clearToolUses !== undefined || settings.clearThinking !== undefined) betas.push("context-management-2025-06-27");
  if (settings.compact !== undefined) betas.push("compact-2026-01-12");
  return betas;
}

/**
 * The body's `context_management` value. `clear_thinking_20251015` goes first: "when using
 * clear_thinking with other edits, it must be the first strategy in the edits array".
 */
export function convertContextManagement(settings: AnthropicContextManagement): { edits: Record<string, unknown>[] } {
  validate(settings);
  const edits: Record<string, unknown>[] = [];
  const { clearThinking, clearToolUses, compact } = settings;
  if (clearThinking !== undefined) edits.push({ type: "clear_thinking_20251015", ...(clearThinking.keep === undefined ? {} : { keep: clearThinking.keep }) });
  if (clearToolUses !== undefined) {
    edits.push({
      type: "clear_tool_uses_20250919",
      ...(clearToolUses.trigger ? { trigger: clearToolUses.trigger } : {}),
      ...(clearToolUses.keep ? { keep: clearToolUses.keep } : {}),
      ...(clearToolUses.clearAtLeast ? { clear_at_least: clearToolUses.clearAtLeast } : {}),
      ...(clearToolUses.excludeTools ? { exclude_tools: [...clearToolUses.excludeTools] } : {}),
      ...(clearToolUses.clearToolInputs === undefined ? {} : { clear_tool_inputs: clearToolUses.clearToolInputs }),
    });
  }
  if (compact !== undefined) {
    edits.push({
      type: "compact_20260112",
      ...(compact.trigger ? { trigger: compact.trigger } : {}),
      ...(compact.pauseAfterCompaction === undefined ? {} : { pause_after_compaction: compact.pauseAfterCompaction }),
      ...(compact.instructions === undefined ? {} : { instructions: compact.instructions }),
    });
  }
  return { edits };
}

function validate(settings: AnthropicContextManagement): void {
  const counts: Array<[string, { value: number } | undefined]> = [
    ["clearToolUses.trigger", settings.clearToolUses?.trigger],
    ["clearToolUses.keep", settings.clearToolUses?.keep],
    ["clearToolUses.clearAtLeast", settings.clearToolUses?.clearAtLeast],
    ["compact.trigger", settings.compact?.trigger],
    ["clearThinking.keep", typeof settings.clearThinking?.keep === "object" ? settings.clearThinking.keep : undefined],
  ];
  for (const [name, count] of counts) {
    if (count !== undefined && !(Number.isInteger(count.value) && count.value >= 0)) {
      throw new ConfigError("option_invalid", `contextManagement.${name}.value must be a whole number ≥ 0, got ${String(count.value)}.`);
    }
  }
  // "trigger must be at least 50000 tokens" for compaction (Anthropic's compaction guide).
  const compactTrigger = settings.compact?.trigger?.value;
  if (compactTrigger !== undefined && compactTrigger < minimumCompactionTrigger) {
    throw new ConfigError("option_invalid", `contextManagement.compact.trigger.value must be at least 50000 input tokens (the API's minimum), got ${compactTrigger}.`);
  }
}
