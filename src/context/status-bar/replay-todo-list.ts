import type { Message } from "../../types/index.js";
import { rewriteTodoList, rewriteTodoListToolName, updateTodoStatus, updateTodoStatusToolName, type TodoItem, type TodoResult } from "./todo-list.js";
import { collectToolCalls } from "./tool-call-history.js";

export interface ReplayTodoListOptions {
  /** The list to start from (a checkpoint's), for trajectories whose earlier TODO calls were compacted away. */
  initial?: readonly TodoItem[];
  /** Index of the first message to replay (the message after that checkpoint). */
  from?: number;
  /**
   * Replay up to this call, excluding it: used by a TODO tool while its turn runs, when the results of
   * earlier calls in the same turn are not yet in the trajectory — those are applied as they will be.
   */
  beforeCallId?: string;
}

/**
 * The TODO list as the trajectory says it is: the TODO tools' calls replayed in order. A call counts
 * when its result is a success; its result's creation time stamps the items. Nothing is stored
 * outside the trajectory, so a restarted agent sees the same list. Pure.
 */
export function replayTodoList(messages: readonly Message[], options: ReplayTodoListOptions = {}): TodoItem[] {
  let items: TodoItem[] = [...(options.initial ?? [])];
  const records = collectToolCalls(messages, options.from ?? 0);
  const runningTurn = records.find((record) => record.call.id === options.beforeCallId)?.messageIndex;
  for (const record of records) {
    if (record.call.id === options.beforeCallId) break;
    const { name, arguments: args } = record.call;
    if (name !== rewriteTodoListToolName && name !== updateTodoStatusToolName) continue;
    // A call without a result is either earlier in the running turn (apply it) or was cut off by a crash.
    if (record.result === undefined && record.messageIndex !== runningTurn) continue;
    if (record.result?.isError === true) continue;
    const outcome: TodoResult =
      name === rewriteTodoListToolName ? rewriteTodoList(items, args, record.result?.meta.createdAt) : updateTodoStatus(items, args, record.result?.meta.createdAt);
    if (outcome.ok) items = outcome.items;
  }
  return items;
}
