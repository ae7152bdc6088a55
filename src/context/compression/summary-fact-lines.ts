import { derivedOf, type Message } from "../../types/index.js";
import { isArchiveMessage } from "./condense-archive.js";
import { groupIntoUnits } from "./conversation-units.js";
import { extractFactLines, isNumberIdentifier } from "./extract-fact-lines.js";
import { extractIdentifiers, isErrorLine } from "./extract-identifiers.js";
import { keepByRank } from "./keep-by-rank.js";
import { externalTagOf, isExternalTagLine, recordedTagNonces, renderTaggedLines, tagLinesCost, tagOfTagLine, type ExternalTag, type TaggedLine } from "./tagged-lines.js";
import { unitToSource } from "./unit-source.js";

/** A fact line, trimmed, with the tags of the result it came from (none for a trusted result). */
type Fact = TaggedLine;

/** A turn as archives show it: its gist line (`- <id>: <call> → ok`) and its fact lines. */
interface TurnFacts {
  gist: string;
  facts: Fact[];
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
 * keeps them too. Lines of a tagged result (a web page, an MCP server, an untrusted workspace) stay
 * inside that result's `<external_content>` tags: the summary is a harness message in the user's
 * role, and a page's line must not read there as the user's words. Empty when nothing fits.
 */
export function summaryFactLines(messages: readonly Message[], options: SummaryFactLineOptions): string[] {
  // Each line's identifiers once: picking a result's fact lines, naming what a turn showed and ranking its lines all need them.
  const found = new Map<string, string[]>();
  const identifiersOf = (line: string) => found.get(line) ?? found.set(line, extractIdentifiers(line)).get(line)!;
  const turns = replacedTurns(messages, identifiersOf).map((turn) => ({ gist: turn.gist, facts: turn.facts.filter((fact) => options.knownLines?.has(fact.line) !== true) }));
  const seen = new Set<string>();
  const items: Array<{ turn: number; fact: Fact; rank: number }> = [];
  // Newest turn first, so a line two turns show is ranked as the newer one.
  for (let turn = turns.length - 1; turn >= 0; turn -= 1) {
    const age = turns.length - 1 - turn;
    for (const fact of turns[turn]!.facts) items.push({ turn, fact, rank: age * 3 + (isErrorLine(fact.line) ? 0 : isNumberOnly(identifiersOf(fact.line)) ? 2 : 1) });
  }
  const unique = items.filter((item) => (seen.has(item.fact.line) ? false : (seen.add(item.fact.line), true)));
  // A line costs its own characters (indented, with a newline), the first line kept of a turn its
  // turn's gist line too, and the first of a tagged result in a turn the tags around them.
  const paid = new Set<string>();
  const costOf = (item: (typeof unique)[number]) => {
    const [turnKey, tagKey] = groupKeys(item);
    const tagCost = tagKey === undefined || paid.has(tagKey) ? 0 : tagLinesCost(item.fact.tag!, "  ");
    return item.fact.line.length + 3 + (paid.has(turnKey!) ? 0 : turns[item.turn]!.gist.length + 1) + tagCost;
  };
  const kept = keepByRank(unique, (item) => item.rank, costOf, options.maxChars, (item) => {
    for (const key of groupKeys(item)) paid.add(key);
  });
  return render(turns, unique.filter((_, position) => kept.has(position)));
}

/** `isNumberOnlyLine` of a line that is no error line, from its identifiers. */
function isNumberOnly(identifiers: readonly string[]): boolean {
  return identifiers.length > 0 && identifiers.every(isNumberIdentifier);
}

/** What a kept line pays for once: its turn's gist, and (when tagged) its result's tags in that turn. */
function groupKeys(item: { turn: number; fact: Fact }): string[] {
  return [`${item.turn}`, ...(item.fact.tag ? [`${item.turn}\u0000${item.fact.tag.nonce}`] : [])];
}

function render(turns: readonly TurnFacts[], kept: ReadonlyArray<{ turn: number; fact: Fact }>): string[] {
  const byTurn = new Map<number, Set<string>>();
  for (const item of kept) byTurn.set(item.turn, (byTurn.get(item.turn) ?? new Set()).add(item.fact.line));
  return turns.flatMap((turn, index) => {
    const lines = byTurn.get(index);
    return lines === undefined ? [] : [turn.gist, ...renderTaggedLines(turn.facts.filter((candidate) => lines.has(candidate.line)), "  ")];
  });
}

/** The turns a compaction replaces, oldest first, each with every fact line it still shows. */
function replacedTurns(messages: readonly Message[], identifiersOf: (line: string) => string[]): TurnFacts[] {
  const turns: TurnFacts[] = [];
  // Only the first line of an identifier is a candidate (later lines repeat what it named).
  const named = new Set<string>();
  const note = (facts: readonly Fact[]) => {
    for (const fact of facts) for (const identifier of identifiersOf(fact.line)) named.add(identifier);
  };
  const add = (turn: TurnFacts) => {
    note(turn.facts);
    if (turn.facts.length > 0) turns.push(turn);
  };
  for (const unit of groupIntoUnits(messages)) {
    const first = messages[unit.start]!;
    const summary = derivedOf(first, "summary");
    if (summary !== undefined) {
      for (const turn of parseTurns(summary.keptLines ?? [], recordedTagNonces(first))) add(turn);
      continue;
    }
    if (isArchiveMessage(first)) {
      for (const turn of parseTurns(first.content.split("\n").slice(1), recordedTagNonces(first))) add(turn);
      continue;
    }
    const slice = messages.slice(unit.start, unit.end);
    const source = unitToSource(slice, first.meta.id);
    if (source.kind !== "assistant" && source.kind !== "tool") continue;
    const call = source.text.split("\n", 1)[0]!;
    const gist = `- ${source.label}: ${call.length > 120 ? `${call.slice(0, 119)}…` : call}`;
    // The tools' lines hold the facts; the model's own text restates what it read (see `turnLine`).
    // Each result on its own, so a line keeps the tags of the result it came from.
    const facts: Fact[] = [];
    for (const message of slice) {
      if (message.role !== "tool") continue;
      const tag = externalTagOf(message);
      const lines = extractFactLines(message.content, { maxChars: Number.MAX_SAFE_INTEGER, isKnown: (identifier) => named.has(identifier) || gist.includes(identifier), identifiersOf })
        // The result's own tags are not facts: the kept lines get them again, around them. A line of
        // a trusted result that looks like a tag is one of its lines.
        .filter((line) => tag === undefined || isExternalTagLine(line)?.id !== tag.nonce);
      const fromResult = lines.map((line) => (tag ? { line, tag } : { line }));
      note(fromResult);
      facts.push(...fromResult);
    }
    if (facts.length > 0) turns.push({ gist, facts });
  }
  return turns;
}

/**
 * Archive-shaped lines (`- ` gist lines, each followed by its indented fact lines, those of a
 * tagged result between its tags) as turns; `nonces`: the tags they were written with (see `tagOfTagLine`).
 */
function parseTurns(lines: readonly string[], nonces: ReadonlySet<string> | undefined): TurnFacts[] {
  const turns: TurnFacts[] = [];
  let tag: ExternalTag | undefined;
  for (const line of lines) {
    const trimmed = line.trim();
    if (line.startsWith("- ")) {
      turns.push({ gist: line, facts: [] });
      tag = undefined;
      continue;
    }
    if (trimmed === "" || turns.length === 0) continue;
    const change = tagOfTagLine(trimmed, tag, nonces);
    if (change !== undefined) tag = change ?? undefined;
    else turns.at(-1)!.facts.push(tag ? { line: trimmed, tag } : { line: trimmed });
  }
  return turns;
}
