import type { AgentEvent, BlobStore, Message } from "../types/index.js";
import { ContextError } from "../types/index.js";
import type { ContextEdit, SessionSink } from "./agent-options.js";

export interface EditTarget {
  trajectory: Message[];
  session: SessionSink | undefined;
  /** Where the blobs an edit carries are stored, before the edit is recorded. */
  blobStore: BlobStore;
  /** Messages a replacement removes are kept here by id (for `recall` by message id). */
  replaced: Map<string, Message>;
}

export interface AppliedEdits {
  events: AgentEvent[];
  /** The reason of the last replacement, which the prefix guard must see as declared. */
  declaredReason?: string;
}

/**
 * Applies a context preparer's edits to the trajectory in order and records them in the session:
 * appended messages as ordinary message records, replacements as context-edit records (the
 * originals stay in the session file). Throws on an edit that does not fit the context — a bug in
 * the preparer, not something to guess about.
 */
export function applyContextEdits(edits: readonly ContextEdit[], target: EditTarget, turn: number, at: string): AppliedEdits {
  const { trajectory, session } = target;
  const events: AgentEvent[] = [];
  let declaredReason: string | undefined;
  for (const edit of edits) {
    // The originals a stub or preview points to are stored before anything refers to them.
    for (const blob of edit.blobs ?? []) target.blobStore.put(blob.content);
    if (edit.type === "append") {
      const start = trajectory.length;
      for (const message of edit.messages) {
        trajectory.push(message);
        session?.appendMessage(message);
      }
      events.push({ type: "context_edit", turn, kind: "append", start, end: start, inserted: edit.messages.length, ...derivedKinds(edit.messages) });
      continue;
    }
    if (!(edit.start >= 0 && edit.start <= edit.end && edit.end <= trajectory.length)) {
      throw new ContextError(
        "context_edit_invalid",
        `A context edit replaced messages ${edit.start}–${edit.end}, but the context has ${trajectory.length}. Fix the prepareContext function.`,
      );
    }
    for (const removed of trajectory.slice(edit.start, edit.end)) target.replaced.set(removed.meta.id, removed);
    trajectory.splice(edit.start, edit.end - edit.start, ...edit.messages);
    session?.appendContextEdit({ start: edit.start, end: edit.end, messages: edit.messages, reason: edit.reason, at });
    declaredReason = edit.reason;
    events.push({ type: "context_edit", turn, kind: "replace", start: edit.start, end: edit.end, inserted: edit.messages.length, reason: edit.reason, ...derivedKinds(edit.messages) });
  }
  return { events, ...(declaredReason ? { declaredReason } : {}) };
}

/** The distinct `meta.derived` kinds of an edit's messages (what a trace reports the edit did). */
function derivedKinds(messages: readonly Message[]): { derived?: string[] } {
  const kinds = [...new Set(messages.flatMap((message) => (message.meta.derived ? [message.meta.derived.kind] : [])))];
  return kinds.length === 0 ? {} : { derived: kinds };
}
