/** The TODO tools' names: the status bar replays their calls to know the list. */
export const rewriteTodoListToolName = "rewrite_todo_list";
export const updateTodoStatusToolName = "update_todo_status";

export const todoStatuses = ["pending", "in_progress", "completed", "cancelled"] as const;
export type TodoStatus = (typeof todoStatuses)[number];

export interface TodoItem {
  id: string;
  content: string;
  status: TodoStatus;
  /** ISO time the item first appeared (by id); absent while its call's result is not yet recorded. */
  createdAt?: string;
  /** ISO time of the last change of its content or status. */
  updatedAt?: string;
}

/** The outcome of one TODO operation: the new list, or a message for the model saying what to fix. */
export type TodoResult = { ok: true; items: TodoItem[] } | { ok: false; message: string };

/**
 * `rewrite_todo_list`: the new list replaces the old one. Items keep their creation time by id, so a
 * rewrite that carries items over does not make them look new. Pure.
 */
export function rewriteTodoList(current: readonly TodoItem[], args: unknown, at?: string): TodoResult {
  const items = (args as { items?: unknown } | null)?.items;
  if (!Array.isArray(items)) return { ok: false, message: 'Pass {"items": [{"id": "1", "content": "…", "status": "pending"}, …]}.' };
  const next: TodoItem[] = [];
  for (const [index, raw] of items.entries()) {
    const item = raw as Partial<Record<keyof TodoItem, unknown>> | null;
    if (typeof item?.id !== "string" || item.id.trim() === "" || typeof item.content !== "string" || item.content.trim() === "") {
      return { ok: false, message: `Item ${index + 1} needs a non-empty "id" and "content" (strings).` };
    }
    const status = item.status ?? "pending";
    if (!isTodoStatus(status)) return { ok: false, message: `Item "${item.id}" has status ${JSON.stringify(status)}; use one of ${todoStatuses.join(", ")}.` };
    if (next.some((existing) => existing.id === item.id)) return { ok: false, message: `The id "${item.id}" appears twice; give every item its own id.` };
    const previous = current.find((existing) => existing.id === item.id);
    const changed = previous === undefined || previous.content !== item.content || previous.status !== status;
    next.push(stamp({ id: item.id, content: item.content, status }, previous?.createdAt ?? at, changed ? at : previous?.updatedAt));
  }
  return checkSingleInProgress(next);
}

/** `update_todo_status`: changes the status of items by id. Pure. */
export function updateTodoStatus(current: readonly TodoItem[], args: unknown, at?: string): TodoResult {
  const updates = (args as { updates?: unknown } | null)?.updates;
  if (!Array.isArray(updates) || updates.length === 0) return { ok: false, message: 'Pass {"updates": [{"id": "1", "status": "completed"}, …]} with at least one update.' };
  const next = current.map((item) => ({ ...item }));
  for (const raw of updates) {
    const update = raw as { id?: unknown; status?: unknown } | null;
    const item = next.find((candidate) => candidate.id === update?.id);
    if (item === undefined) {
      const known = current.length === 0 ? "The list is empty; create it with rewrite_todo_list first." : `Known ids: ${current.map((entry) => entry.id).join(", ")}.`;
      return { ok: false, message: `No TODO item has the id ${JSON.stringify(update?.id)}. ${known}` };
    }
    if (!isTodoStatus(update?.status)) return { ok: false, message: `Status ${JSON.stringify(update?.status)} for "${item.id}" is not one of ${todoStatuses.join(", ")}.` };
    if (item.status !== update.status) Object.assign(item, stamp({ ...item, status: update.status }, item.createdAt, at));
  }
  return checkSingleInProgress(next);
}

function checkSingleInProgress(items: TodoItem[]): TodoResult {
  const active = items.filter((item) => item.status === "in_progress");
  if (active.length > 1) {
    return {
      ok: false,
      message:
        `At most one item may be in_progress, but ${active.map((item) => `"${item.id}"`).join(" and ")} would be. ` +
        "Finish (completed) or pause (pending) the current one in the same call, then start the next. The list was not changed.",
    };
  }
  return { ok: true, items };
}

function stamp(item: TodoItem, createdAt: string | undefined, updatedAt: string | undefined): TodoItem {
  const { createdAt: _created, updatedAt: _updated, ...rest } = item;
  return { ...rest, ...(createdAt ? { createdAt } : {}), ...(updatedAt ? { updatedAt } : {}) };
}

export function isTodoStatus(value: unknown): value is TodoStatus {
  return typeof value === "string" && (todoStatuses as readonly string[]).includes(value);
}
