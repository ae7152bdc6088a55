import { ToolError, type Tool, type ToolContext } from "../../types/index.js";
import { replayTodoList } from "./replay-todo-list.js";
import { rewriteTodoList, rewriteTodoListToolName, updateTodoStatus, updateTodoStatusToolName, type TodoItem, type TodoResult } from "./todo-list.js";
import { rewriteTodoListParameters, updateTodoStatusParameters } from "./todo-tool-schemas.js";

/**
 * The TODO tools of the seed's experiment 2-9 (after Manus's "recitation"): `rewrite_todo_list` and
 * `update_todo_status`. They keep no list of their own: the current list is the replay of earlier
 * TODO calls in the trajectory the loop hands them (`ToolContext.messages`), so a resumed session has
 * the same list, and the status bar shows exactly what the tools decided. Violations (two items in
 * progress, an unknown id) come back as `invalid_arguments` errors saying how to fix the call.
 */
export function createTodoTools(): Tool[] {
  const rewrite: Tool<{ items: unknown[] }> = {
    name: rewriteTodoListToolName,
    description:
      "Replace your TODO list with a new one. Plan any task of 3 or more steps with it before you start, and call it " +
      "again whenever the plan changes (a step turns out unnecessary, a new one appears). Each item has a short id " +
      '("1", "2", …; keep the ids of items you carry over), the step as one imperative sentence, and a status: pending, ' +
      "in_progress, completed or cancelled. At most one item may be in_progress: the step you are working on now. The " +
      "current list is shown in <agent_status> at the end of the conversation, so you do not need to remember it. " +
      'Example: {"items": [{"id": "1", "content": "Read config.json", "status": "in_progress"}, {"id": "2", "content": "Write the summary", "status": "pending"}]}',
    parameters: rewriteTodoListParameters,
    source: "trusted",
    // Left at the default risk (write): the list is shown in the status bar, which the model trusts,
    // so text copied into it from external content is checked by the runtime guard like a file write.
    execute: async (args, context) => apply(rewriteTodoList(currentList(context), args), "TODO list replaced"),
  };
  const update: Tool<{ updates: unknown[] }> = {
    name: updateTodoStatusToolName,
    description:
      "Change the status of TODO items by id. Mark a step in_progress when you start it and completed as soon as it is " +
      "done; use cancelled for a step that is no longer needed or cannot be done (then add a replacement with " +
      "rewrite_todo_list if one is needed). At most one item may be in_progress after the update, so finish and start " +
      'in one call: {"updates": [{"id": "1", "status": "completed"}, {"id": "2", "status": "in_progress"}]}',
    parameters: updateTodoStatusParameters,
    source: "trusted",
    execute: async (args, context) => apply(updateTodoStatus(currentList(context), args), "TODO list updated"),
  };
  // Argument types are checked by the runner against each schema; erasing them here is safe.
  return [rewrite, update] as unknown as Tool[];
}

function currentList(context: ToolContext): TodoItem[] {
  return replayTodoList(context.messages ?? [], { beforeCallId: context.toolCallId });
}

function apply(result: TodoResult, heading: string): string {
  if (!result.ok) throw new ToolError("invalid_arguments", result.message);
  return formatTodoList(result.items, heading);
}

/** The list as the tool result shows it: a count line, then one line per item. */
export function formatTodoList(items: readonly TodoItem[], heading: string): string {
  if (items.length === 0) return `${heading}: the list is now empty.`;
  const done = items.filter((item) => item.status === "completed").length;
  return [`${heading} (${done}/${items.length} completed):`, ...items.map((item) => `[${item.id}] ${item.status}: ${item.content}`)].join("\n");
}
