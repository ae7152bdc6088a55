import type { Message } from "../../types/index.js";
import { extractIdentifiers } from "./extract-identifiers.js";
import { visibleTextOf, writtenTextOf } from "./message-text.js";

/** An identifier a tool result introduced and the model later wrote. */
export interface ReferencePair {
  identifier: string;
  /** Index in the conversation of the tool result where it first appeared. */
  sourceIndex: number;
  /** Index of the first assistant message after it that wrote it: the call where it must be visible. */
  writtenIndex: number;
}

/**
 * The identifiers that first appear in a tool result (no earlier message — system, task, model,
 * tool — contains them) and that a later assistant message writes, each with the first assistant
 * message that writes it. A property of the recorded run, so every policy is scored on the same
 * pairs. Containment is by substring, as a model copies text, not tokens.
 */
export function findReferencePairs(systemText: string, messages: readonly Message[]): ReferencePair[] {
  const written = indexWrittenText(messages);
  const earlier: string[] = systemText === "" ? [] : [systemText];
  const decided = new Set<string>();
  const pairs: ReferencePair[] = [];
  for (const [index, message] of messages.entries()) {
    const text = visibleTextOf(message);
    if (message.role === "tool") {
      for (const identifier of extractIdentifiers(text)) {
        if (decided.has(identifier)) continue;
        decided.add(identifier);
        const writtenIndex = written.firstAfter(index, identifier);
        // The costly check runs only for identifiers the model goes on to write (a few dozen per run).
        if (writtenIndex === undefined || earlier.some((previous) => previous.includes(identifier))) continue;
        pairs.push({ identifier, sourceIndex: index, writtenIndex });
      }
    }
    earlier.push(text);
  }
  return pairs;
}

/** All assistant writing in one string, so "which later turn first writes X" is one `indexOf`. */
function indexWrittenText(messages: readonly Message[]): { firstAfter(index: number, identifier: string): number | undefined } {
  const starts: number[] = [];
  const indices: number[] = [];
  let text = "";
  for (const [index, message] of messages.entries()) {
    if (message.role !== "assistant") continue;
    starts.push(text.length);
    indices.push(index);
    // A separator no identifier contains, so a match never spans two turns.
    text += `${writtenTextOf(message)}\u0000`;
  }
  return {
    firstAfter(index, identifier) {
      const first = indices.findIndex((candidate) => candidate > index);
      if (first < 0) return undefined;
      const position = text.indexOf(identifier, starts[first]);
      if (position < 0) return undefined;
      let low = first;
      let high = starts.length - 1;
      while (low < high) {
        const middle = (low + high + 1) >> 1;
        if (starts[middle]! <= position) low = middle;
        else high = middle - 1;
      }
      return indices[low];
    },
  };
}
