import type { AssistantMessage, Message, ToolMessage } from "./message.js";
import type { CacheBreak } from "./cache-break.js";
import type { Usage } from "./usage.js";

/** Why a run ended. `final_answer` is the only success. */
export type RunStopReason =
  | "final_answer"
  | "max_iterations"
  | "aborted"
  | "repeated_tool_call"
  | "error";

export interface RunResult {
  stopReason: RunStopReason;
  /** The text of the last assistant message ("" when the run did not end with an answer). */
  finalText: string;
  /** Every message this run appended to the trajectory, in order. */
  messages: Message[];
  usage: Usage;
  iterations: number;
  sessionId?: string;
  error?: { code: string; message: string };
}

/**
 * What `agent.run()` streams. Each event is a plain serialisable object with a `type` literal, so
 * `ctxkit run --json` can print them as NDJSON unchanged.
 */
export type AgentEvent =
  | { type: "run_start"; runId: string; sessionId?: string; input: string }
  | { type: "turn_start"; turn: number }
  | { type: "request"; turn: number; messageCount: number; hasTail: boolean }
  | { type: "text_delta"; turn: number; delta: string }
  | { type: "thinking_delta"; turn: number; delta: string }
  | { type: "tool_call_start"; turn: number; id: string; name: string }
  | { type: "tool_call_end"; turn: number; id: string; name: string; argumentsText: string; arguments: unknown }
  | { type: "tool_result"; turn: number; message: ToolMessage; durationMs: number }
  | { type: "usage"; turn: number; usage: Usage }
  | { type: "turn_end"; turn: number; message: AssistantMessage }
  | ({ type: "cache_break"; turn: number } & Omit<CacheBreak, "excerpt">)
  | {
      /** A declared change of already-sent context (compaction, cleared results) or harness messages appended. */
      type: "context_edit";
      turn: number;
      kind: "append" | "replace";
      start: number;
      end: number;
      inserted: number;
      reason?: string;
    }
  | { type: "warning"; code: string; message: string }
  | { type: "error"; code: string; message: string }
  | {
      type: "run_end";
      stopReason: RunStopReason;
      sessionId?: string;
      usage: Usage;
      iterations: number;
      finalText: string;
      error?: { code: string; message: string };
    };

export type AgentEventType = AgentEvent["type"];
