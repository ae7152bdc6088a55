import { stat } from "node:fs/promises";
import {
  createApproximatePromptMeter,
  createQwen3PromptMeter,
  createTranscriptAnalyzer,
  type PromptMeter,
  importTranscriptFiles,
  type AnalyzedTranscript,
  type ImportedTranscript,
  type ImportProblem,
  type TranscriptAnalyzerOptions,
  type RenderedCallText,
  type TranscriptFormat,
} from "../inspect/index.js";
import type { ToolDefinition } from "../types/index.js";
import { createExactAnalysis } from "./exact-analysis.js";
import type { ExactAnalysisOptions } from "./exact-analysis-core.js";

/** One recorded run as the viewer shows it: what was sent (for prompt text and diffs) and its analysis. */
export interface ViewRun {
  imported: ImportedTranscript;
  analyzed: AnalyzedTranscript;
}

export interface ViewSourceOptions extends TranscriptAnalyzerOptions {
  format?: TranscriptFormat | "auto";
  tools?: ToolDefinition[];
  /**
   * Qwen3 only. "immediate" (default): the runs are served once counted exactly. "background":
   * served at once with estimated counts while a worker thread counts them exactly; the runs are
   * then replaced (version bumped) and prompts are rendered exactly by that worker. A 500-call,
   * 100k-token run opens in about a second instead of several.
   */
  exactCounts?: "immediate" | "background";
  /**
   * Background counts only. "at-once" (default): the worker starts with the source. "when-asked":
   * only on `startExactCounts()` (the viewer's server calls it once the page has drawn), so the
   * counting competes neither with the start nor with the page's first drawing.
   */
  exactCountsStart?: "at-once" | "when-asked";
}

/** The runs of the files being viewed, read again whenever a file grows or changes. */
export interface ViewSource {
  readonly files: readonly string[];
  /** The meter the analysis counted with; its caches hold every call's tokens, so a prompt is rendered again cheaply. */
  readonly meter: PromptMeter;
  runs(): readonly ViewRun[];
  problems(): readonly ImportProblem[];
  /** Bumped on every reload that changed something; the page compares it to know when to refetch. */
  version(): number;
  /** Reads the files again if any changed since the last read; true when the runs changed. */
  refresh(): Promise<boolean>;
  /** Background exact counts only: a call's template text as the exact meter renders it; undefined until the exact counts are in. */
  exactPrompt?(runIndex: number, callIndex: number, reusableTokens: number): Promise<RenderedCallText | undefined>;
  /** Background counts started "when-asked": starts them (later calls do nothing). */
  startExactCounts?(): void;
  /** Stops the background counting (a no-op otherwise). */
  close(): Promise<void>;
}

const PENDING_NOTE = "Estimated counts: the exact Qwen3 counts are being computed in the background; the page updates by itself when they are in.";

/**
 * Imports and analyses the given files with the same importers and analyzer as `ctxkit inspect`.
 * One analyzer (and its token caches) serves every reload, so a growing session costs the new
 * calls' tokens, not the whole run's, on each reload.
 */
export async function createViewSource(files: readonly string[], options: ViewSourceOptions = {}): Promise<ViewSource> {
  const tokenizer = options.tokenizer ?? "qwen3";
  const background = tokenizer === "qwen3" && options.exactCounts === "background";
  const meter = background ? createApproximatePromptMeter("estimate") : tokenizer === "qwen3" ? createQwen3PromptMeter({ rendering: options.rendering }) : createApproximatePromptMeter(tokenizer);
  const analyzer = createTranscriptAnalyzer({ ...options, tokenizer: meter.tokenizer, meter });
  // Created when the counting starts: no thread (and no tokenizer loading) before it is needed.
  let exact: ReturnType<typeof createExactAnalysis> | undefined;
  let started = background && options.exactCountsStart !== "when-asked";
  let waiting: (() => void) | undefined;
  let closed = false;
  let runs: ViewRun[] = [];
  let problems: ImportProblem[] = [];
  let version = 0;
  let signature = "";
  let generation = 0;
  let exactIn = false;
  // Analyses sent to the worker and not answered yet: a prompt asked for meanwhile would wait behind them.
  let counting = 0;

  const load = async (): Promise<boolean> => {
    const imported = await importTranscriptFiles([...files], { format: options.format ?? "auto", ...(options.tools === undefined ? {} : { tools: options.tools }) });
    problems = imported.problems;
    if (!background) {
      runs = imported.transcripts.map((transcript) => ({ imported: transcript, analyzed: analyzer.analyze(transcript) }));
      version++;
      return true;
    }
    const current = ++generation;
    const countExactly = () => {
      counting++;
      const counted = (exact ??= createExactAnalysis(exactOptionsOf(options))).analyze(imported.transcripts);
      return counted
        .then(
          (analyzed) => {
            // A newer read is on its way to the worker: its counts replace these.
            if (current !== generation) return;
            runs = imported.transcripts.map((transcript, index) => ({ imported: transcript, analyzed: analyzed[index]! }));
            exactIn = true;
            version++;
          },
          (error: Error) => {
            if (current === generation) problems = [...problems, { file: files.join(", "), reason: `exact counts could not be computed (${error.message}); showing estimates` }];
          },
        )
        .finally(() => counting--);
    };
    if (closed) return false;
    // Not started yet: only the newest read is counted when it starts.
    if (started) void countExactly();
    else waiting = () => void countExactly();
    // Once exact counts are shown, a grown file keeps them until the new exact counts are in, rather than flickering back to estimates.
    if (exactIn) return false;
    runs = imported.transcripts.map((transcript) => {
      const analyzed = analyzer.analyze(transcript);
      return { imported: transcript, analyzed: { ...analyzed, notes: [PENDING_NOTE, ...analyzed.notes] } };
    });
    version++;
    return true;
  };

  const refresh = async (): Promise<boolean> => {
    const next = await signatureOf(files);
    if (next === signature) return false;
    signature = next;
    try {
      return await load();
    } catch (error) {
      // A file caught in the middle of being rewritten: keep showing the last good read.
      if (version === 0) throw error;
      problems = [{ file: files.join(", "), reason: `could not be read again (${(error as Error).message}); showing the last good read` }];
      return false;
    }
  };
  await refresh();

  const source: ViewSource = {
    files,
    meter,
    runs: () => runs,
    problems: () => problems,
    version: () => version,
    refresh,
    close: async () => {
      // Neither a start asked for nor a read made after closing may create a thread nobody stops.
      closed = true;
      waiting = undefined;
      await exact?.close();
    },
  };
  if (background) {
    source.startExactCounts = () => {
      if (started || closed) return;
      started = true;
      waiting?.();
      waiting = undefined;
    };
  }
  // The worker answers in order: while it counts a grown file (seconds for a long run), a call's prompt
  // is not queued behind that count but rendered with the estimate; the page asks again when the
  // version moves.
  if (background) source.exactPrompt = async (runIndex, callIndex, reusableTokens) => (exactIn && exact !== undefined && counting === 0 ? exact.render(runIndex, callIndex, reusableTokens) : undefined);
  return source;
}

function exactOptionsOf(options: ViewSourceOptions): ExactAnalysisOptions {
  const result: ExactAnalysisOptions = {};
  if (options.rendering !== undefined) result.rendering = options.rendering;
  if (options.pricing !== undefined) result.pricing = options.pricing;
  if (options.cacheWriteTtl !== undefined) result.cacheWriteTtl = options.cacheWriteTtl;
  return result;
}

/** Size and modification time of every file: a session that grows changes both. */
async function signatureOf(files: readonly string[]): Promise<string> {
  const parts = await Promise.all(
    files.map(async (file) => {
      try {
        const info = await stat(file);
        return `${info.size}:${info.mtimeMs}`;
      } catch {
        return "missing";
      }
    }),
  );
  return parts.join("|");
}
