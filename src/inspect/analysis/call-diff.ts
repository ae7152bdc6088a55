import type { ImportedCall } from "../imported-transcript.js";
import type { Message, UserMessage } from "../../types/index.js";

/** What changed from one call's request to another's. */
export interface CallDiff {
  systemChanged: boolean;
  toolsChanged: boolean;
  /** Leading trajectory messages both requests share unchanged. */
  keptMessages: number;
  /** Messages of the earlier request, after the shared ones, that the later one no longer has. */
  removed: Message[];
  /**
   * Messages of the later request, after the shared ones, that the earlier one did not have and
   * that stand where earlier messages stood: what a compaction wrote (stubs, a summary).
   */
  replacements: Message[];
  /** New messages after everything the earlier request had (its response, tool results, the next user turn). */
  appended: Message[];
  /** Messages both have under the same id, with different content. */
  changed: Array<{ previous: Message; next: Message }>;
  tail: { previous?: UserMessage; next?: UserMessage; changed: boolean };
  /**
   * Set when the later request replaced messages (removed some and added others) and the
   * transcript declares the change: a compaction, whose added messages are its summary.
   */
  compaction?: { reason: string };
}

/**
 * Compares two calls of one transcript by message id and content (ids are stable across a
 * transcript's calls). Usually the earlier call is the one right before the later.
 */
export function diffCalls(previous: ImportedCall, next: ImportedCall): CallDiff {
  const before = previous.request.messages;
  const after = next.request.messages;
  const same = (left: Message, right: Message) => left === right || JSON.stringify(left) === JSON.stringify(right);
  let kept = 0;
  while (kept < before.length && kept < after.length && same(before[kept]!, after[kept]!)) kept++;
  const restBefore = before.slice(kept);
  const restAfter = after.slice(kept);
  const afterById = new Map(restAfter.map((message) => [message.meta.id, message]));
  const beforeIds = new Set(restBefore.map((message) => message.meta.id));
  const changed: CallDiff["changed"] = [];
  const removed: Message[] = [];
  for (const message of restBefore) {
    const counterpart = afterById.get(message.meta.id);
    if (counterpart === undefined) removed.push(message);
    else if (!same(message, counterpart)) changed.push({ previous: message, next: counterpart });
  }
  const appendedFrom = appendedStart(restBefore, restAfter, beforeIds, previous.response?.meta.id);
  const isNew = (message: Message) => !beforeIds.has(message.meta.id);
  const tailChanged = JSON.stringify(previous.request.tail ?? null) !== JSON.stringify(next.request.tail ?? null);
  const diff: CallDiff = {
    systemChanged: JSON.stringify(previous.request.system) !== JSON.stringify(next.request.system),
    toolsChanged: JSON.stringify(previous.request.tools) !== JSON.stringify(next.request.tools),
    keptMessages: kept,
    removed,
    replacements: restAfter.slice(0, appendedFrom).filter(isNew),
    appended: restAfter.slice(appendedFrom).filter(isNew),
    changed,
    tail: { ...(previous.request.tail === undefined ? {} : { previous: previous.request.tail }), ...(next.request.tail === undefined ? {} : { next: next.request.tail }), changed: tailChanged },
  };
  if (next.declaredBreak !== undefined && removed.length > 0) diff.compaction = { reason: next.declaredBreak.reason };
  return diff;
}

/**
 * Where the appended messages start in the later request's unshared rest: at the earlier call's
 * response when it is there, else after the last message the earlier request also had, else
 * (nothing in common) as many messages in as the earlier rest had.
 */
function appendedStart(restBefore: readonly Message[], rest: readonly Message[], beforeIds: ReadonlySet<string>, responseId: string | undefined): number {
  const response = responseId === undefined ? -1 : rest.findIndex((message) => message.meta.id === responseId);
  if (response >= 0) return response;
  let last = -1;
  rest.forEach((message, index) => {
    if (beforeIds.has(message.meta.id)) last = index;
  });
  return last >= 0 ? last + 1 : Math.min(restBefore.length, rest.length);
}
