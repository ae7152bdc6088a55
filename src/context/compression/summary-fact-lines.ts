import { derivedOf, type Message } from "../../types/index.js";
import { isArchiveMessage } from "./condense-archive.js";
import { groupIntoUnits } from "./conversation-units.js";
import { extractFactLines, isNumberOnlyLine } from "./extract-fact-lines.js";
import { extractIdentifiers, isErrorLine } from "./extract-identifiers.js";
import { keepByRank } from "./keep-by-rank.js";
import { unitToSource } from "./unit-source.js";

/** A turn as archives show it: its gist line (`- <id>: <call> → ok`) and its fact lines, trimmed. */
interface TurnFacts {
  gist: string;
  facts: string[];
}

export interface SummaryFactLineOptions {
  /** At most this many characters in all (gist lines and fact lines, each with its newline). */
  maxChars: number;
  /** Lines (trimmed) the context shows anyway: the summary's own text, what stays beside it. */
  knownLines?: ReadonlySet<string>;
}

/**
 * The fact lines a full compaction keeps verbatim beside its summary, as archive lines (each
 * turn's gist, then its kept lines indented): a summary keeps the identifiers of what it replaces
 * but not their lines, so without these a line survives archives and condensing and is then lost
 * at the first summary. Candidates are every fact line of the replaced messages — the lines an
 * archive or a stub kept, the first line of each identifier of a result still whole, the lines an
 * earlier summary kept — chosen by `keepByRank` within `maxChars`: the newest turn's lines first,
 * then the turn before it, and so on (what the next steps use was mostly read last: Claude Code
 * re-attaches the most recent file reads after compacting), within a turn error lines, then lines
 * that name something, then number-only lines. On the tune half of swe-gemini, newest turn first
 * kept more lines at 10k than best kind first across all turns (0.932 against 0.926).
 * Extractive and deterministic: the policy adds them, not the summariser, so a model summary
 * keeps them too. Empty when nothing fits.
 */
export function summaryFactLines(messages: readonly Message[], options: SummaryFactLineOptions): string[] {
  const turns = replacedTurns(messages).map((turn) => ({ gist: turn.gist, facts: turn.facts.filter((fact) => options.knownLines?.has(fact) !== true) }));
  const seen = new Set<string>();
  const items: Array<{ turn: number; line: string; rank: number }> = [];
  // Newest turn first, so a line two turns show is ranked as the newer one.
  for (let turn = turns.length - 1; turn >= 0; turn -= 1) {
    const age = turns.length - 1 - turn;
    for (const line of turns[turn]!.facts) items.push({ turn, line, rank: age * 3 + (isErrorLine(line) ? 0 : isNumberOnlyLine(line) ? 2 : 1) });
  }
  const unique = items.filter((item) => (seen.has(item.line) ? false : (seen.add(item.line), true)));
  // A line costs its own characters (indented, with a newline), and the first line kept of a turn
  // its turn's gist line too.
  const paid = new Set<number>();
  let counted = 0;
  const costOf = (item: (typeof unique)[number], kept: ReadonlySet<number>) => {
    if (kept.size !== counted) for (const position of kept) paid.add(unique[position]!.turn);
    counted = kept.size;
    return item.line.length + 3 + (paid.has(item.turn) ? 0 : turns[item.turn]!.gist.length + 1);
  };
  const kept = keepByRank(unique, (item) => item.rank, costOf, options.maxChars);
  return render(turns, unique.filter((_, position) => kept.has(position)));
}

function render(turns: readonly TurnFacts[], kept: ReadonlyArray<{ turn: number; line: string }>): string[] {
  const byTurn = new Map<number, Set<string>>();
  for (const item of kept) byTurn.set(item.turn, (byTurn.get(item.turn) ?? new Set()).add(item.line));
  return turns.flatMap((turn, index) => {
    const lines = byTurn.get(index);
    return lines === undefined ? [] : [turn.gist, ...turn.facts.filter((fact) => lines.has(fact)).map((fact) => `  ${fact}`)];
  });
}

/** The turns a compaction replaces, oldest first, each with every fact line it still shows. */
function replacedTurns(messages: readonly Message[]): TurnFacts[] {
  const turns: TurnFacts[] = [];
  // Only the first line of an identifier is a candidate (later lines repeat what it named).
  const named = new Set<string>();
  const add = (gist: string, facts: readonly string[]) => {
    for (const fact of facts) for (const identifier of extractIdentifiers(fact)) named.add(identifier);
    if (facts.length > 0) turns.push({ gist, facts: [...facts] });
  };
  for (const unit of groupIntoUnits(messages)) {
    const first = messages[unit.start]!;
    const summary = derivedOf(first, "summary");
    if (summary !== undefined) {
      for (const turn of parseTurns(summary.keptLines ?? [])) add(turn.gist, turn.facts);
      continue;
    }
    if (isArchiveMessage(first)) {
      for (const turn of parseTurns(first.content.split("\n").slice(1))) add(turn.gist, turn.facts);
      continue;
    }
    const slice = messages.slice(unit.start, unit.end);
    const source = unitToSource(slice, first.meta.id);
    if (source.kind !== "assistant" && source.kind !== "tool") continue;
    const call = source.text.split("\n", 1)[0]!;
    const gist = `- ${source.label}: ${call.length > 120 ? `${call.slice(0, 119)}…` : call}`;
    // The tools' lines hold the facts; the model's own text restates what it read (see `turnLine`).
    const results = slice.flatMap((message) => (message.role === "tool" ? [message.content] : [])).join("\n");
    add(gist, extractFactLines(results, { maxChars: Number.MAX_SAFE_INTEGER, isKnown: (identifier) => named.has(identifier) || gist.includes(identifier) }));
  }
  return turns;
}

/** Archive-shaped lines (`- ` gist lines, each followed by its indented fact lines) as turns. */
function parseTurns(lines: readonly string[]): TurnFacts[] {
  const turns: TurnFacts[] = [];
  for (const line of lines) {
    if (line.startsWith("- ")) turns.push({ gist: line, facts: [] });
    else if (line.trim() !== "" && turns.length > 0) turns.at(-1)!.facts.push(line.trim());
  }
  return turns;
}
