import type { AssistantMessage, Message, ToolMessage } from "./message.js";
import type { CacheBreak } from "./cache-break.js";
import type { CacheMiss } from "./cache-miss.js";
import type { Usage } from "./usage.js";
import type { CtxkitErrorCode } from "./error-codes.js";

/** Why a run ended. `final_answer` is the only success. */
export type RunStopReason =
  | "final_answer"
  | "max_iterations"
  | "aborted"
  | "repeated_tool_call"
  /** A call would have taken a `hard` budget over its limit, or an `approval` budget was not approved. */
  | "budget_exceeded"
  | "error";

/** The codes of the `warning` events the loop emits; a run goes on after each. */
export type AgentWarningCode =
  | "session_write_failed"
  | "max_iterations"
  | "output_truncated"
  /** The provider stopped the answer for its content (a refusal, a content filter): it may be empty or cut short. */
  | "content_filtered"
  | "repeated_tool_call"
  | "undeclared_cache_break"
  | "context_overflow"
  /** A budget level's spend passed a warning threshold (once per level and threshold). */
  | "budget_threshold"
  /** A call goes over a `soft` budget (once per level). */
  | "budget_exceeded"
  /** The final answer repeated the system prompt and was withheld (`createLeakWithholding`). */
  | "system_prompt_leak"
  /** A call that asked the server to compact (`run(input, { compact })`) came back without a compaction. */
  | "server_compaction_skipped"
  /** Tool search was asked to widen queries by related words, but their table could not be read: it searches without them. */
  | "related_words_unavailable"
  /** Tool search's embedding model failed (down, slow, wrong vectors): that search was lexical only. */
  | "embeddings_unavailable";

/** Why a run failed: a typed error's code, or one of the loop's own stop conditions. */
export type RunErrorCode =
  | CtxkitErrorCode
  | "max_iterations"
  | "repeated_tool_call"
  | "budget_exceeded"
  | "context_preparation_failed"
  | "session_write_failed"
  | "tool_result_processing_failed";

export interface RunError {
  code: RunErrorCode;
  message: string;
}

export interface RunResult {
  stopReason: RunStopReason;
  /** The text of the last assistant message ("" when the run did not end with an answer). */
  finalText: string;
  /** Every message this run appended to the trajectory, in order. */
  messages: Message[];
  /** Every model call's tokens: the agent's own and its sub-agents' (`subAgentUsage`) together. */
  usage: Usage;
  /** The part of `usage` spent by sub-agents (`task` calls); absent when none ran. */
  subAgentUsage?: Usage;
  iterations: number;
  sessionId?: string;
  error?: RunError;
}

/**
 * What `agent.run()` streams. Each event is a plain serialisable object with a `type` literal, so
 * `ctxkit run --json` can print them as NDJSON unchanged.
 */
export type AgentEvent =
  | { type: "run_start"; runId: string; sessionId?: string; input: string }
  | { type: "turn_start"; turn: number }
  | {
      type: "request";
      turn: number;
      messageCount: number;
      hasTail: boolean;
      /** The provider and model called, and the request's generation settings (for traces). */
      provider?: string;
      model?: string;
      maxOutputTokens?: number;
      temperature?: number;
      /** Tokens of this request the previous one left reusable, when the prefix guard could count them. */
      reusablePrefixTokens?: number;
      /** The provider's base URL, when it calls a server (traces report its host and port). */
      baseURL?: string;
      /** The policies that wrote the tail (e.g. "status-bar"), when there is one. */
      tailPolicies?: string[];
    }
  /*
   * Content blocks of the assistant message, as they stream. `index` is the block's position in
   * the turn's final `message.content`; blocks may interleave (parallel tool calls), so a UI keys
   * its drawing on `index`. Each block gets one start, its deltas and one end (a failed or aborted
   * call leaves blocks open; the `error` or `run_end` event closes them).
   */
  | { type: "text_start"; turn: number; index: number }
  | { type: "text_delta"; turn: number; index: number; delta: string }
  | { type: "text_end"; turn: number; index: number; text: string }
  | { type: "thinking_start"; turn: number; index: number }
  | { type: "thinking_delta"; turn: number; index: number; delta: string }
  | { type: "thinking_end"; turn: number; index: number; thinking: string }
  | { type: "tool_call_start"; turn: number; index: number; id: string; name: string }
  | { type: "tool_call_delta"; turn: number; index: number; id: string; delta: string }
  | { type: "tool_call_end"; turn: number; index: number; id: string; name: string; argumentsText: string; arguments: unknown }
  | {
      type: "tool_result";
      turn: number;
      message: ToolMessage;
      durationMs: number;
      /** Set when the call needed a confirmation: what the person (or handler) answered. */
      confirmation?: "approved" | "declined";
    }
  | { type: "usage"; turn: number; usage: Usage }
  /** `response`: what the server said about the response (its id, the model that answered), when it did; for traces. */
  | { type: "turn_end"; turn: number; message: AssistantMessage; response?: { id?: string; model?: string } }
  | ({ type: "cache_break"; turn: number } & Omit<CacheBreak, "excerpt">)
  /** The call's cached tokens fell short of what the previous call left reusable: why (dollars are priced by the caller). */
  | ({ type: "cache_miss"; turn: number } & CacheMiss)
  | {
      /** A declared change of already-sent context (compaction, cleared results) or harness messages appended. */
      type: "context_edit";
      turn: number;
      kind: "append" | "replace";
      start: number;
      end: number;
      inserted: number;
      reason?: string;
      /** What the inserted messages are (their `meta.derived` kinds: summary, archive, stub, status…), harness-set, never read from text. */
      derived?: string[];
    }
  /** Backpressure: the loop waited `delayMs` before this call because a budget level has spent `share` of its limit. */
  | { type: "backpressure"; turn: number; delayMs: number; share: number }
  | { type: "warning"; code: AgentWarningCode; message: string }
  | { type: "error"; code: RunErrorCode; message: string }
  | {
      type: "run_end";
      stopReason: RunStopReason;
      sessionId?: string;
      /** Own and sub-agents' tokens together; `subAgentUsage` is the sub-agents' part. */
      usage: Usage;
      subAgentUsage?: Usage;
      iterations: number;
      finalText: string;
      error?: RunError;
    };

export type AgentEventType = AgentEvent["type"];
