import type { Message } from "../types/index.js";
import { findStatusCheckpoint } from "./status-bar/status-checkpoint.js";

/** Key of the all-tools counter in `LoopState.toolCallCounts` (not a valid tool name). */
export const totalToolCallsKey = "*";

/**
 * Counts the tool results already in a trajectory (a resumed session continues the numbering). A
 * compaction removes results but leaves a status checkpoint with the counts before it; start from
 * the newest one, or a restarted agent would number its next result lower than the one it replaced.
 */
export function countToolCalls(messages: readonly Message[]): Map<string, number> {
  const counts = new Map<string, number>();
  const checkpoint = findStatusCheckpoint(messages);
  for (const [name, count] of Object.entries(checkpoint?.data.toolCalls ?? {})) {
    if (name === totalToolCallsKey) continue;
    counts.set(name, count);
    counts.set(totalToolCallsKey, (counts.get(totalToolCallsKey) ?? 0) + count);
  }
  for (const message of messages.slice(checkpoint ? checkpoint.index + 1 : 0)) {
    if (message.role !== "tool") continue;
    counts.set(message.toolName, (counts.get(message.toolName) ?? 0) + 1);
    counts.set(totalToolCallsKey, (counts.get(totalToolCallsKey) ?? 0) + 1);
  }
  return counts;
}
