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
  /**
   * The fact, not just the name: the line of the tool result where the identifier first appeared,
   * trimmed; a line over 200 characters is cut to the 200-character window around the identifier.
   * Line recall asks for this text verbatim, so a list of names alone does not score.
   */
  line: string;
}

/** Longer lines are scored on a window around the identifier (long lines are minified code, logs, JSON). */
export const MAX_LINE_CHARS = 200;

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
        pairs.push({ identifier, sourceIndex: index, writtenIndex, line: sourceLineOf(text, identifier) });
      }
    }
    earlier.push(text);
  }
  return pairs;
}

/**
 * The trimmed line holding the first occurrence of `identifier` in `text`; over `MAX_LINE_CHARS`,
 * the window of that many characters centred on the identifier (moved inside the line at its ends).
 */
export function sourceLineOf(text: string, identifier: string): string {
  const position = text.indexOf(identifier);
  if (position < 0) return identifier;
  const start = text.lastIndexOf("\n", position) + 1;
  const newline = text.indexOf("\n", position);
  const raw = text.slice(start, newline < 0 ? text.length : newline);
  const line = raw.trim();
  if (line.length <= MAX_LINE_CHARS) return line;
  if (identifier.length >= MAX_LINE_CHARS) return identifier;
  const at = position - start - (raw.length - raw.trimStart().length);
  const from = Math.min(Math.max(0, at - Math.floor((MAX_LINE_CHARS - identifier.length) / 2)), line.length - MAX_LINE_CHARS);
  return line.slice(from, from + MAX_LINE_CHARS);
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
