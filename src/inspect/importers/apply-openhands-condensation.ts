import type { Message } from "../../types/index.js";
import type { JsonObject } from "./json-guards.js";

/** A message of the rebuilt history with the id of the OpenHands event it came from. */
export interface OpenHandsHistoryEntry {
  message: Message;
  eventId: number | undefined;
}

/** The declared break of the first call after a condensation, V0 or V1. */
export const openHandsCondensationBreak = "OpenHands condensation (forgotten events replaced by a summary)";

/**
 * Applies an OpenHands condensation to the rebuilt history: the events it forgot leave every later
 * prompt, and its `summary`, when given, takes their place. OpenHands inserts the summary at
 * `summary_offset` among all kept events, system and state events included, which this history does
 * not hold; the place of the first forgotten message is that position for the condensers OpenHands
 * ships (they keep a head of events and forget the run after it).
 */
export function applyOpenHandsCondensation(history: OpenHandsHistoryEntry[], forgotten: (eventId: number) => boolean, summary: string | undefined, summaryMeta: Message["meta"]): void {
  const firstForgotten = history.findIndex((entry) => entry.eventId !== undefined && forgotten(entry.eventId));
  const kept = history.filter((entry) => entry.eventId === undefined || !forgotten(entry.eventId));
  if (summary !== undefined && summary !== "") {
    const at = firstForgotten === -1 ? kept.length : firstForgotten;
    kept.splice(at, 0, { message: { role: "user", content: summary, meta: summaryMeta }, eventId: undefined });
  }
  history.splice(0, history.length, ...kept);
}

/**
 * The events a V0 `condensation` action (`CondensationAction`, written by OpenHands' condensers)
 * forgets: `forgotten_event_ids`, or the range `forgotten_events_start_id`..`forgotten_events_end_id`;
 * undefined when it names none.
 */
export function forgottenOpenHandsEvents(args: JsonObject): ((id: number) => boolean) | undefined {
  if (Array.isArray(args.forgotten_event_ids)) {
    const ids = new Set(args.forgotten_event_ids.filter((id): id is number => typeof id === "number"));
    return (id) => ids.has(id);
  }
  const start = args.forgotten_events_start_id;
  const end = args.forgotten_events_end_id;
  if (typeof start === "number" && typeof end === "number") return (id) => id >= start && id <= end;
  return undefined;
}
