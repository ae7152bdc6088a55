import type { Message } from "../../types/index.js";
import type { ContextEdit } from "../context-policy.js";

/**
 * The one `replace` edit that turns `before` into `after`: the messages both share at the start and
 * at the end (the same objects, so unchanged bytes) stay out of it. Undefined when nothing changed.
 */
export function editBetween(before: readonly Message[], after: readonly Message[], reason: string): ContextEdit | undefined {
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) start += 1;
  if (start === before.length && start === after.length) return undefined;
  let shared = 0;
  while (
    shared < before.length - start &&
    shared < after.length - start &&
    before[before.length - 1 - shared] === after[after.length - 1 - shared]
  ) {
    shared += 1;
  }
  return { type: "replace", start, end: before.length - shared, messages: after.slice(start, after.length - shared), reason };
}
