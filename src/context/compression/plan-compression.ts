import { derivedOf, type Message } from "../../types/index.js";
import type { StablePrefix } from "../stable-prefix.js";
import type { SummarySource } from "./summarizer.js";
import { unionOfSources } from "../external-content/message-provenance.js";
import { archiveCoverage } from "./archive-coverage.js";
import { createArchiveMessage, findArchiveRanges } from "./archive-turns.js";
import { groupIntoUnits } from "./conversation-units.js";
import { planToolResultClearing } from "./clear-old-tool-results.js";
import type { CompressionSettings } from "./compression-options.js";
import type { CompressionStats } from "./compression-stats.js";
import type { ContextMeter } from "./context-meter.js";
import { createSummaryMessage, findCompactionRange, recentTailStart } from "./full-compaction.js";
import { CHARS_PER_TOKEN } from "./extractive-summary.js";
import { frozenTextOf } from "./markers.js";
import { summarizeSafely } from "./summarize-safely.js";
import { archiveTurnLines, linesOf } from "./sectioned-summary.js";
import { partialCompactionEnd } from "./partial-compaction.js";
import { condenseArchiveToFit, isArchiveMessage } from "./condense-archive.js";
import { summaryFactLines } from "./summary-fact-lines.js";
import { tagNoncesOf } from "./tagged-lines.js";

export interface PlanInput {
  messages: readonly Message[];
  /** Counted tokens of the system prompt and tools. */
  prefixTokens: number;
  /** Provider tokens per counted token. */
  scale: number;
  targetTokens: number;
  /** After a context overflow: keep only the newest turn and clear every result that can be. */
  hard: boolean;
  /**
   * `clearing` for optional compactions with a model summariser (no model calls just to weigh
   * them), `archive` for optional ones with the deterministic one (archive lines keep their facts'
   * lines; a full summary would not), `all` when the context must shrink.
   */
  layers: "clearing" | "archive" | "all";
  batch: number;
  now: Date;
  signal?: AbortSignal;
  /** The prefix as sent, for an in-band summary request (see `CompressionOptions.summaryRequest`). */
  prefix?: StablePrefix;
  /** The archive lines' share of the turns they replace (default `settings.archiveShare`). */
  archiveShare?: number;
  /**
   * Clear only results whose stubs, and archive only turns whose archives, keep at least this share
   * of their identifiers (see `identifierCoverage`): for optional batches, which must not lose facts.
   */
  minCoverage?: number;
  /** The prompt cache went cold: an in-band request would be served from no cache. */
  cacheCold?: boolean;
}

export interface CompressionPlan {
  messages: Message[];
  /** Provider-scale tokens of the planned context. */
  projectedTokens: number;
  clearedResults: number;
  archivedTurns: number;
  fullCompaction: boolean;
  steps: string[];
}

/**
 * Layers 3–5, cheapest first, each tried only when the one before cannot reach the target:
 * clearing old tool results; archival summaries of older turns (plus clearing); condensing
 * archives, this batch's too, oldest first (extractive, so still no model call; after an overflow
 * too), never dropping a line a later archive left out because it was shown; a compaction of everything between
 * the first request and the recent turns — or, with `partialCompaction`, of the oldest of them
 * only (plus clearing). Each candidate is built from the context as it was sent, so an archive
 * never folds in a stub this batch made.
 */
export async function planCompression(input: PlanInput, settings: CompressionSettings, meter: ContextMeter, stats: CompressionStats): Promise<CompressionPlan> {
  const { messages, hard } = input;
  const project = (candidate: readonly Message[]) => Math.round((input.prefixTokens + meter.countMessages(candidate)) * input.scale);
  const minFreed = hard ? 1 : settings.minFreedTokens;
  const clear = (candidate: readonly Message[]) =>
    planToolResultClearing(candidate, {
      keepRecentToolTokens: hard ? 0 : settings.keepRecentToolTokens,
      // The newest turn's results have not been seen yet; only an overflow justifies clearing them.
      ...(hard ? {} : { protectFrom: groupIntoUnits(candidate).at(-1)?.start ?? candidate.length }),
      countMessage: meter.countMessage,
      blobs: settings.blobs,
      factShare: settings.stubShare,
      ...(input.minCoverage === undefined ? {} : { minCoverage: input.minCoverage }),
      batch: input.batch,
      now: input.now,
    });
  const original = project(messages);
  let best: CompressionPlan = { messages: [...messages], projectedTokens: original, clearedResults: 0, archivedTurns: 0, fullCompaction: false, steps: [] };
  const consider = (candidate: CompressionPlan) => {
    if (original - candidate.projectedTokens >= minFreed && candidate.projectedTokens < best.projectedTokens) best = candidate;
    return best.projectedTokens <= input.targetTokens;
  };

  const cleared = clear(messages);
  if (consider(withClearing(cleared, project, { archivedTurns: 0, fullCompaction: false, steps: [] })) || input.layers === "clearing") return best;

  const firstKept = firstRequestIndex(messages);
  const tailOf = (base: readonly Message[]) => recentTailStart(base, hard ? 0 : settings.keepRecentTokens, meter.countMessage, firstKept);
  const tailStart = tailOf(messages);
  // Archives of the uncompressed turns of `base` from `from` on (to the recent tail).
  const archiveFrom = (base: readonly Message[], from: number): { messages: Message[]; turns: number } => {
    const ranges = findArchiveRanges(base, from, tailOf(base));
    const archived: Message[] = [...base];
    const archives: Message[] = [];
    const replaced: typeof ranges = [];
    let turns = 0;
    for (const range of ranges) {
      // Room for the turns' fact lines: a share of what they held, at least 80 tokens a turn.
      const sourceTokens = range.sources.reduce((sum, source) => sum + source.text.length, 0) / CHARS_PER_TOKEN;
      const maxTokens = Math.max(100, 80 * range.sources.length, Math.round(sourceTokens * (input.archiveShare ?? settings.archiveShare)));
      const known = frozenTextBefore(base, range.start, archives);
      // Archive lines are extractive (each turn's call and its results' fact lines, verbatim): no
      // model call, so an archive costs nothing but the cache rebuild it causes — and keeps the
      // lines a model summary most often loses. Only a compaction asks the summariser.
      const { lines, omitted } = archiveTurnLines({ purpose: "turns", sources: range.sources, maxTokens, ...(known ? { known } : {}) });
      // An optional batch must not lose facts: turns whose archive would drop identifiers stay as they are.
      if (input.minCoverage !== undefined && archiveCoverage(range.sources, lines, known) < input.minCoverage) continue;
      archives.push(createArchiveMessage(range, lines, input.batch, input.now, unionOfSources(base.slice(range.start, range.end)), omitted));
      replaced.push(range);
      turns += range.sources.length;
    }
    for (const [index, range] of [...replaced.entries()].reverse()) archived.splice(range.start, range.end - range.start, archives[index]!);
    return { messages: archived, turns };
  };

  const archived = archiveFrom(messages, firstKept + 1);
  if (archived.turns > 0 && consider(withClearing(clear(archived.messages), project, { archivedTurns: archived.turns, fullCompaction: false, steps: [`archived ${archived.turns} turns`] }))) return best;
  if (input.layers === "archive") return best;
  // Archives keep their turns' fact lines and a full compaction does not: when clearing and
  // archives already bring the context under the compaction floor, the run goes on without one.
  const floorTokens = settings.contextWindow * settings.compactionFloor;
  if (!hard && best.steps.length > 0 && best.projectedTokens <= floorTokens) return best;
  // Before any summary, archives (older ones and this batch's) are condensed, oldest first, as few
  // as reach the target: they stay verbatim lines, only fewer of them, and no model is asked — after
  // an overflow too, where the only other way down is a summary of everything.
  if (settings.condenseShare > 0) {
    const condensed = [...archived.messages];
    let count = 0;
    const tail = tailOf(condensed);
    // A stub left out lines shown anywhere in the context it was made in, archives included.
    const shownForStubs = condensed.flatMap((message) => derivedOf(message, "stub")?.omittedAsShown ?? []);
    for (let index = firstKept + 1; index < tail; index += 1) {
      const message = condensed[index]!;
      if (!isArchiveMessage(message)) continue;
      // A line this archive, a later one or a stub left out because it was shown (here) stays:
      // condensing must not remove a line from the context altogether.
      const shownOnlyHere = new Set([...shownForStubs, ...condensed.slice(index, tail).flatMap((later) => (isArchiveMessage(later) ? (derivedOf(later, "archive")?.omittedAsShown ?? []) : []))]);
      // The archive that reaches the target is condensed only as far as the target needs.
      const fits = (candidate: Message) => project(clear(condensed.map((kept, position) => (position === index ? candidate : kept))).messages) <= input.targetTokens;
      const smaller = condenseArchiveToFit(message, settings.condenseShare, fits, input.batch, input.now, shownOnlyHere);
      if (smaller === undefined) continue;
      condensed[index] = smaller;
      count += 1;
      const steps = [...(archived.turns > 0 ? [`archived ${archived.turns} turns`] : []), `condensed ${count} archives`];
      if (consider(withClearing(clear(condensed), project, { archivedTurns: archived.turns, fullCompaction: false, steps }))) return best;
    }
    if (!hard && best.projectedTokens <= floorTokens) return best;
  }

  const maxTokens = Math.round(Math.min(8000, Math.max(500, settings.contextWindow * 0.1), input.targetTokens / 3));
  const lineTokens = Math.round(settings.summaryLineShare * settings.contextWindow);
  const summaryTokens = summaryTokensBesideLines(maxTokens, lineTokens);
  // A partial compaction summarises only the oldest turns, as few as bring the context (with the
  // newer turns archived and old results cleared) down to the goal; the rest stays as it was.
  const partialGoal = settings.partialCompaction === false || hard ? undefined : settings.contextWindow * settings.partialCompaction;
  // When the goal cannot be reached without the newer turns (a large newest turn), the least that
  // gets under the compaction floor still keeps more verbatim than a full compaction.
  const goals = partialGoal === undefined ? [] : [partialGoal, Math.max(partialGoal, floorTokens)];
  let partialEnd: number | undefined;
  for (const goal of goals) {
    partialEnd = partialCompactionEnd(messages, firstKept + 1, tailStart, {
      goalTokens: goal,
      summaryTokens: (summaryTokens + lineTokens) * input.scale,
      project: (rest) => {
        const restFrom = rest.findIndex((message, index) => index > firstKept && message !== messages[index]);
        return project(clear(archiveFrom(rest, restFrom < 0 ? rest.length : restFrom).messages).messages);
      },
    });
    if (partialEnd !== undefined) break;
  }
  const range = findCompactionRange(messages, firstKept + 1, partialEnd ?? tailStart);
  if (range !== undefined) {
    const firstRequest = firstKept >= 0 ? messages[firstKept] : undefined;
    const summary = await summarizeSafely(
      settings.summarizer,
      {
        purpose: "compaction",
        sources: range.sources,
        ...(firstRequest?.role === "user" ? { task: firstRequest.content } : {}),
        ...(range.previousSummary ? { previousSummary: range.previousSummary } : {}),
        ...(range.previousSummaryTagNonces ? { previousSummaryTagNonces: range.previousSummaryTagNonces } : {}),
        maxTokens: summaryTokens,
        ...(askInBand(input, settings, original, range.sources) ? { inBand: { prefix: input.prefix!, messages } } : {}),
      },
      stats,
      input.signal,
    );
    const summaryMessage = (keptLines: readonly string[]) =>
      createSummaryMessage(range, summary, messages[range.start]!.meta.id, messages[range.end - 1]!.meta.id, input.batch, input.now, unionOfSources(messages.slice(range.start, range.end)), keptLines, tagNoncesOf(messages.slice(range.start, range.end)));
    const compactedWith = (message: Message) => [...messages.slice(0, range.start), message, ...messages.slice(range.end)];
    // The replaced turns' best fact lines stay verbatim beside the summary, within a share of the
    // window and the room the summary leaves under the trigger (after an overflow: under the
    // target), so they never make a compaction fail; lines the summary or the messages it leaves
    // in place show already are not repeated.
    const ceiling = hard ? input.targetTokens : settings.triggerTokens;
    const plain = compactedWith(summaryMessage([]));
    const roomTokens = (ceiling - project(clear(plain).messages)) / input.scale;
    const shown = [summary, ...plain.flatMap((message, index) => (index === range.start || message.role === "assistant" ? [] : [message.content]))];
    const keptLines = roomTokens > 0 ? summaryFactLines(messages.slice(range.start, range.end), { maxChars: Math.min(lineTokens, roomTokens) * CHARS_PER_TOKEN, knownLines: new Set(shown.flatMap(linesOf)) }) : [];
    const withLines = keptLines.length > 0 ? compactedWith(summaryMessage(keptLines)) : plain;
    // Characters are an estimate of tokens: lines that would still cross the ceiling are left out.
    const compacted = project(clear(withLines).messages) < ceiling ? withLines : plain;
    const step = `compacted ${range.end - range.start} messages into a summary`;
    if (partialEnd === undefined) {
      consider(withClearing(clear(compacted), project, { archivedTurns: 0, fullCompaction: true, steps: [step] }));
    } else {
      const rest = archiveFrom(compacted, range.start + 1);
      const steps = rest.turns > 0 ? [`${step} (the oldest turns)`, `archived ${rest.turns} turns`] : [`${step} (the oldest turns)`];
      consider(withClearing(clear(rest.messages), project, { archivedTurns: rest.turns, fullCompaction: true, steps }));
    }
  }
  return best;
}

function withClearing(
  cleared: { messages: Message[]; cleared: number },
  project: (messages: readonly Message[]) => number,
  base: Pick<CompressionPlan, "archivedTurns" | "fullCompaction" | "steps">,
): CompressionPlan {
  const steps = cleared.cleared > 0 ? [...base.steps, `cleared ${cleared.cleared} old tool results`] : base.steps;
  return { ...base, messages: cleared.messages, projectedTokens: project(cleared.messages), clearedResults: cleared.cleared, steps };
}

/** The frozen text before `end` (see `frozenTextOf`) plus this batch's archives of earlier ranges. */
function frozenTextBefore(messages: readonly Message[], end: number, newArchives: readonly Message[]): string {
  const texts = messages.slice(0, end).flatMap((message) => frozenTextOf(message) ?? []);
  for (const archive of newArchives) if (archive.role === "user") texts.push(archive.content);
  return texts.join("\n");
}

/**
 * Whether the compaction summary is asked in-band. In-band pays the conversation at the cached
 * price plus the instruction; a separate call pays the summarised part at the full price: in-band
 * is cheaper when ratio × conversation < summarised tokens. It needs a warm cache and the
 * conversation to fit the window (after an overflow it does not).
 */
export function askInBand(input: PlanInput, settings: CompressionSettings, conversationTokens: number, sources: readonly SummarySource[]): boolean {
  if (input.prefix === undefined || settings.summaryRequest === "separate") return false;
  if (input.hard || conversationTokens >= settings.contextWindow) return false;
  if (settings.summaryRequest === "in-band") return true;
  const summarisedTokens = sources.reduce((sum, source) => sum + source.text.length, 0) / CHARS_PER_TOKEN;
  return !input.cacheCold && settings.cachedPriceRatio * conversationTokens < summarisedTokens;
}

/** The first request of the user: kept verbatim by every step (-1 when there is none). */
export function firstRequestIndex(messages: readonly Message[]): number {
  return messages.findIndex((message) => message.role === "user" && message.meta.origin !== "harness");
}

/**
 * What a summary is asked for when fact lines (`lineTokens` of them) are kept beside it: the lines
 * hold the facts behind the identifiers it would list, so `maxTokens` less them, but never less than
 * half of `maxTokens` (nor 500 tokens): a model's summary also carries the task's state and the
 * decisions made, which no line holds, and at large windows the lines' share would leave it nothing.
 */
export function summaryTokensBesideLines(maxTokens: number, lineTokens: number): number {
  return Math.max(Math.min(500, maxTokens), Math.round(maxTokens / 2), maxTokens - lineTokens);
}
