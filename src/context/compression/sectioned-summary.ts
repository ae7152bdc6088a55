import { extractTaggedFactLines } from "./extract-fact-lines.js";
import { extractErrorLines, formatIdentifierList } from "./extract-identifiers.js";
import { CHARS_PER_TOKEN } from "./extractive-summary.js";
import type { SummaryInput, SummarySource } from "./summarizer.js";
import { identifiersBySource } from "./tagged-identifiers.js";
import { renderTaggedLines, splitTaggedText, tagLinesCost, tagOfTagLine, type ExternalTag } from "./tagged-lines.js";

/** The sections of a compaction summary, in order (the common core of what production agents keep). */
export const SUMMARY_SECTIONS = ["Goal", "Constraints", "Decisions", "Progress", "Failures and why", "Next steps", "Files and identifiers"] as const;

type SectionName = (typeof SUMMARY_SECTIONS)[number];

const CONSTRAINT = /\b(?:must|never|don't|do not|only|always|should|without|avoid|required?|no more than|at most|at least|keep)\b/i;
const DECISION = /\b(?:I'll|I will|decided|decide|chose|choose|instead|plan|going to|approach|the fix|the cause|root cause|because)\b/i;
const NEXT = /\b(?:next|then|todo|remaining|still need|will now|afterwards)\b/i;
const FAILURE = /\b(?:fail(?:s|ed|ure)?|error|didn't work|does not work|doesn't work|wrong|broken|cannot|can't)\b/i;

/** Turns as one line each, git-log style: the gist (the source's first line), its errors, its identifiers. */
export function summarizeTurns(input: SummaryInput): string {
  return archiveTurnLines(input).lines;
}

/**
 * `summarizeTurns`, with the lines it left out because the context already showed them (`omitted`,
 * trimmed): the archive records them, so condensing never drops the one place a line is shown.
 */
export function archiveTurnLines(input: SummaryInput): { lines: string; omitted: string[] } {
  const maxChars = Math.max(200, input.maxTokens * CHARS_PER_TOKEN);
  const shares = turnBudgets(input.sources.map((source) => source.text.length), maxChars, "proportional");
  // A line the context already shows (an earlier archive, the request) or an earlier turn of this
  // archive kept is not repeated: re-reads of the same file region are common and cost twice.
  const knownLines = new Set(linesOf(input.known ?? ""));
  const omitted = new Set<string>();
  // An identifier an earlier turn of this archive kept a fact line for is shown with its line (the
  // first one it appeared on): a later turn short of room spends it on its own new facts first, and
  // on a second line for that identifier only if room is left.
  const shownIdentifiers = new Set<string>();
  const lines = input.sources
    .map((source, index) => {
      const shownHere: string[] = [];
      // A turn of a tagged result has room for its tags on top of the 160 characters every turn gets
      // (a gist and a line or two): paid from those, a page read would keep its gist alone.
      const floor = 160 + (source.external?.[0] ? tagLinesCost(source.external[0], "  ") : 0);
      const line = turnLine(source, Math.max(floor, shares[index]!), knownLines, (known) => omitted.add(known), { shown: shownIdentifiers, onShown: (identifier) => shownHere.push(identifier) });
      for (const kept of linesOf(line)) knownLines.add(kept);
      for (const identifier of shownHere) shownIdentifiers.add(identifier);
      return line;
    })
    .join("\n");
  return { lines, omitted: [...omitted] };
}

/**
 * Each turn's share of an archive's budget. `proportional` to its size: a file read has more facts
 * than an "ok". `capped`: every turn gets all it holds up to a common cap, the cap set so the
 * budget is spent (water-filling, like gemini-cli's per-block budgets): one large listing no longer
 * takes the room of the smaller reads around it.
 */
export function turnBudgets(sizes: readonly number[], budget: number, mode: "proportional" | "capped"): number[] {
  const total = Math.max(1, sizes.reduce((sum, size) => sum + size, 0));
  if (mode === "proportional") return sizes.map((size) => Math.floor((budget * size) / total));
  if (total <= budget) return [...sizes];
  const sorted = [...sizes].sort((a, b) => a - b);
  let left = budget;
  let cap = 0;
  for (const [index, size] of sorted.entries()) {
    const even = left / (sorted.length - index);
    if (size >= even) {
      cap = even;
      break;
    }
    left -= size;
    cap = size;
  }
  return sizes.map((size) => Math.floor(Math.min(size, cap)));
}

/** The non-empty lines of `text`, trimmed: how archives, summaries and kept lines are compared line by line. */
export function linesOf(text: string): string[] {
  return text.split("\n").map((line) => line.trim()).filter((line) => line !== "");
}

/**
 * A turn as its gist line and its results' fact lines. `identifiers.shown`: identifiers whose line
 * the reader already sees (an earlier turn of the same archive): a line kept only for them comes
 * last; `identifiers.onShown` is told of those this turn's kept lines show (see `onShownIdentifier`).
 */
export function turnLine(
  source: SummarySource,
  maxChars: number,
  knownLines?: ReadonlySet<string>,
  onKnownLine?: (line: string) => void,
  identifiers?: { shown: ReadonlySet<string>; onShown: (identifier: string) => void },
): string {
  const [gist = "", ...rest] = source.text.split("\n");
  const line = `- ${source.label}: ${clip(gist, Math.min(200, maxChars / 2))}`;
  // What the tools returned is kept as fact lines, verbatim and indented: every error line, and the
  // first line of each identifier. What the model said is not: its narration restates facts it
  // read (so its line would claim their identifiers and crowd out the tool's line, where the fact
  // is) or plans its next calls, which the gist already shows; the original is one recall away.
  const saidFirst = source.kind === "assistant" && rest[0]?.startsWith("said: ") === true;
  // Lines of a tagged result (a page, an MCP server, an untrusted workspace) stay between that
  // result's tags, paid with them: an archive is a harness message in the user's role, where a
  // page's line must not read as the user's words. Untagged lines come out as before.
  const facts = extractTaggedFactLines(splitTaggedText((saidFirst ? rest.slice(1) : rest).join("\n"), source.external ?? []), {
    maxChars: Math.max(0, maxChars - line.length),
    isKnown: (identifier) => line.includes(identifier),
    tagCost: (tag) => tagLinesCost(tag, "  "),
    ...(identifiers ? { isShown: (identifier: string) => identifiers.shown.has(identifier), onShownIdentifier: identifiers.onShown } : {}),
    ...(knownLines ? { knownLines } : {}),
    ...(onKnownLine ? { onKnownLine } : {}),
  });
  return facts.length === 0 ? line : [line, ...renderTaggedLines(facts, "  ")].join("\n");
}

/**
 * `source` without the lines of its tagged results (and their tags): what a compaction summary may
 * quote. Its sections are re-read line by line by the next one, which would split a tagged block;
 * the lines kept beside it keep them tagged instead (see `summaryFactLines`).
 */
function withoutTaggedLines(source: SummarySource): SummarySource {
  if ((source.external?.length ?? 0) === 0) return source;
  const [gist = "", ...rest] = source.text.split("\n");
  const untagged = splitTaggedText(rest.join("\n"), source.external!).filter((entry) => entry.tag === undefined);
  return { ...source, text: [gist, ...untagged.map((entry) => entry.line)].join("\n") };
}

/**
 * A full-compaction summary in sections, merged with the previous one (its lines come first and are
 * not repeated). Facts are sorted into sections by who said them and by cue words; failures keep
 * their error messages; every identifier goes to the last section, which gets at least a quarter
 * of the budget.
 */
export function summarizeInSections(input: SummaryInput): string {
  const maxChars = Math.max(400, input.maxTokens * CHARS_PER_TOKEN);
  const sections = new Map<SectionName, string[]>(SUMMARY_SECTIONS.map((name) => [name, []]));
  const add = (name: SectionName, line: string) => {
    const list = sections.get(name)!;
    if (line.trim() !== "" && !list.includes(line)) list.push(line);
  };
  const previousNonces = input.previousSummaryTagNonces === undefined ? undefined : new Set(input.previousSummaryTagNonces);
  for (const [name, lines] of parseSections(input.previousSummary ?? "", previousNonces)) for (const line of lines) add(name, line);

  if (input.task) {
    add("Goal", `- ${clip(oneLine(input.task), 600)} (the full request is the first message)`);
    for (const line of sentencesOf(input.task)) if (CONSTRAINT.test(line)) add("Constraints", `- ${clip(line, 300)}`);
  }
  const assistantTexts: string[] = [];
  for (const source of input.sources) {
    if (source.kind === "summary") {
      // An earlier compaction has sections; an archive is a list of turn lines.
      // Their tagged blocks are left out by the tags they recorded (see `unitToSource`).
      const nonces = source.external === undefined ? undefined : new Set(source.external.map((tag) => tag.nonce));
      const parsed = parseSections(source.text, nonces);
      if (parsed.size > 0) for (const [name, lines] of parsed) for (const line of lines) add(name, line);
      else for (const line of linesOutsideTaggedBlocks(source.text, nonces)) if (line.startsWith("- ")) add("Progress", line);
      continue;
    }
    if (source.kind === "user") {
      add("Goal", `- Later request: ${clip(oneLine(source.text), 600)}`);
      for (const line of sentencesOf(source.text)) if (CONSTRAINT.test(line)) add("Constraints", `- ${clip(line, 300)}`);
      continue;
    }
    const quotable = withoutTaggedLines(source);
    add("Progress", turnLine(quotable, 400));
    const [, ...detail] = quotable.text.split("\n");
    if (source.isError) {
      for (const error of extractErrorLines(detail.join("\n"), 3)) add("Failures and why", `- ${source.label}: ${error}`);
    }
    if (source.kind === "assistant") {
      const said = detail.filter((line) => line.startsWith("said: ")).map((line) => line.slice(6)).join(" ");
      assistantTexts.push(said);
      for (const sentence of sentencesOf(said)) {
        if (DECISION.test(sentence)) add("Decisions", `- ${clip(sentence, 300)}`);
        if (FAILURE.test(sentence)) add("Failures and why", `- ${clip(sentence, 300)}`);
      }
    }
  }
  const last = assistantTexts.filter((text) => text.trim() !== "").at(-1);
  if (last) {
    const cues = sentencesOf(last).filter((sentence) => NEXT.test(sentence));
    for (const sentence of cues.length > 0 ? cues : sentencesOf(last).slice(-2)) add("Next steps", `- ${clip(sentence, 300)}`);
  }
  // Identifiers a trusted line names: those only a tagged result's lines name are left out with its
  // lines (see `withoutTaggedLines`; the next summary re-reads this section line by line, where a
  // tag would not hold). The lines kept beside the summary keep them, between their tags.
  const identifiers = identifiersBySource(input.sources).trusted;
  const previousIdentifiers = (sections.get("Files and identifiers") ?? []).join(", ").split(/,\s*/).map((item) => item.replace(/^- /, "")).filter(Boolean);
  sections.set("Files and identifiers", []);
  return fitSections(sections, [...new Set([...previousIdentifiers, ...identifiers])], maxChars);
}

function fitSections(sections: Map<SectionName, string[]>, identifiers: string[], maxChars: number): string {
  const render = (identifierChars: number) =>
    SUMMARY_SECTIONS.map((name) => {
      const lines = name === "Files and identifiers" ? [formatIdentifierList(identifiers, identifierChars)].filter(Boolean) : sections.get(name)!;
      return `## ${name}\n${lines.length > 0 ? lines.join("\n") : "- (none recorded)"}`;
    }).join("\n");
  const fixedChars = render(0).length;
  // Identifiers get at least a quarter of the budget: they are what later steps type again.
  const identifierChars = Math.max(maxChars / 4, maxChars - fixedChars);
  // Over budget, the largest section loses its oldest line, again and again; failures count half,
  // so they go last. The goal is never cut.
  const trimmable = ["Progress", "Decisions", "Constraints", "Next steps", "Failures and why"] as const;
  const weight = (name: SectionName) => sections.get(name)!.join("\n").length * (name === "Failures and why" ? 0.5 : 1);
  while (render(identifierChars).length > maxChars) {
    const largest = trimmable.filter((name) => sections.get(name)!.length > 1).sort((left, right) => weight(right) - weight(left))[0];
    if (largest === undefined) break;
    sections.get(largest)!.shift();
  }
  const text = render(identifierChars);
  return text.length <= maxChars ? text : render(Math.max(0, identifierChars - (text.length - maxChars)));
}

/**
 * The lines of an earlier summary (or archive) outside the blocks of the tags it was written with
 * (`nonces`, see `tagOfTagLine`), those tag lines left out too: a model summary's check appends a
 * page's error lines and identifiers between the page's tags (see `keepMissingFacts`). Re-read line
 * by line, the tags would be split from the page's lines, which would then read as the harness's.
 * `nonces` undefined (written before they were recorded): every line, as it was read then.
 */
function linesOutsideTaggedBlocks(text: string, nonces: ReadonlySet<string> | undefined): string[] {
  const lines: string[] = [];
  let open: ExternalTag | undefined;
  for (const line of text.split("\n")) {
    const change = nonces === undefined ? undefined : tagOfTagLine(line.trim(), open, nonces);
    if (change !== undefined) open = change ?? undefined;
    else if (open === undefined) lines.push(line);
  }
  return lines;
}

/** Sections of an earlier summary (`## Name` headings and their `- ` lines), its tagged blocks left out (see `linesOutsideTaggedBlocks`). */
export function parseSections(text: string, nonces?: ReadonlySet<string>): Map<SectionName, string[]> {
  const sections = new Map<SectionName, string[]>();
  let current: SectionName | undefined;
  for (const line of linesOutsideTaggedBlocks(text, nonces)) {
    const heading = /^## (.+)$/.exec(line.trim());
    if (heading) {
      current = SUMMARY_SECTIONS.find((name) => name === heading[1]);
      continue;
    }
    if (current && line.trim() !== "" && line.trim() !== "- (none recorded)") {
      const list = sections.get(current) ?? [];
      list.push(current === "Files and identifiers" || line.startsWith("- ") ? line : `- ${line.trim()}`);
      sections.set(current, list);
    }
  }
  return sections;
}

function sentencesOf(text: string): string[] {
  return text
    .split(/\n|(?<=[.!?])\s+/)
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence.length > 0);
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

function clip(text: string, maxChars: number): string {
  return text.length <= maxChars ? text : `${text.slice(0, Math.max(0, maxChars - 1))}…`;
}
