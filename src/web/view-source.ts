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
  type TranscriptFormat,
} from "../inspect/index.js";
import type { ToolDefinition } from "../types/index.js";

/** One recorded run as the viewer shows it: what was sent (for prompt text and diffs) and its analysis. */
export interface ViewRun {
  imported: ImportedTranscript;
  analyzed: AnalyzedTranscript;
}

export interface ViewSourceOptions extends TranscriptAnalyzerOptions {
  format?: TranscriptFormat | "auto";
  tools?: ToolDefinition[];
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
}

/**
 * Imports and analyses the given files with the same importers and analyzer as `ctxkit inspect`.
 * One analyzer (and its token caches) serves every reload, so a growing session costs the new
 * calls' tokens, not the whole run's, on each reload.
 */
export async function createViewSource(files: readonly string[], options: ViewSourceOptions = {}): Promise<ViewSource> {
  const tokenizer = options.tokenizer ?? "qwen3";
  const meter = tokenizer === "qwen3" ? createQwen3PromptMeter({ rendering: options.rendering }) : createApproximatePromptMeter(tokenizer);
  const analyzer = createTranscriptAnalyzer({ ...options, meter });
  let runs: ViewRun[] = [];
  let problems: ImportProblem[] = [];
  let version = 0;
  let signature = "";

  const load = async (): Promise<void> => {
    const imported = await importTranscriptFiles([...files], { format: options.format ?? "auto", ...(options.tools === undefined ? {} : { tools: options.tools }) });
    runs = imported.transcripts.map((transcript) => ({ imported: transcript, analyzed: analyzer.analyze(transcript) }));
    problems = imported.problems;
    version++;
  };

  const refresh = async (): Promise<boolean> => {
    const next = await signatureOf(files);
    if (next === signature) return false;
    signature = next;
    try {
      await load();
    } catch (error) {
      // A file caught in the middle of being rewritten: keep showing the last good read.
      if (version === 0) throw error;
      problems = [{ file: files.join(", "), reason: `could not be read again (${(error as Error).message}); showing the last good read` }];
      return false;
    }
    return true;
  };
  await refresh();

  return {
    files,
    meter,
    runs: () => runs,
    problems: () => problems,
    version: () => version,
    refresh,
  };
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
