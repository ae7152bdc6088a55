import { isCtxkitError, type ToolDefinition } from "../types/index.js";
import { createTranscriptAnalyzer, type TranscriptAnalyzer, type TranscriptAnalyzerOptions } from "./analysis/analyze-transcript.js";
import type { AnalyzedTranscript } from "./analysis/analyzed-transcript.js";
import { computeOverallTotals, type OverallTotals } from "./analysis/overall-totals.js";
import type { ImportedTranscript, ImportProblem, TranscriptFormat } from "./imported-transcript.js";
import { importTranscriptFiles, makeIdsUnique } from "./importers/import-transcript-files.js";

export interface InspectFilesOptions extends TranscriptAnalyzerOptions {
  format?: TranscriptFormat | "auto";
  /** Tools for formats that do not record them (τ-bench, Claude Code, Codex). */
  tools?: ToolDefinition[];
  /** Analyse at most this many transcripts (in file order); the rest are counted, not measured. */
  limit?: number;
  /** Reuse an analyzer (and its caches) across calls. */
  analyzer?: TranscriptAnalyzer;
}

export interface InspectReport {
  transcripts: AnalyzedTranscript[];
  totals: OverallTotals;
  /** Records and files that could not be read; everything else still was. */
  problems: ImportProblem[];
  /** Transcripts read but not analysed because of `limit`. */
  skippedTranscripts: number;
}

/**
 * Reads transcript files and analyses each run. A file whose format cannot be told, or that cannot
 * be read, becomes a problem like a bad record does: the other files are still reported.
 */
export async function inspectFiles(paths: readonly string[], options: InspectFilesOptions = {}): Promise<InspectReport> {
  const problems: ImportProblem[] = [];
  const transcripts: ImportedTranscript[] = [];
  for (const path of paths) {
    try {
      const imported = await importTranscriptFiles([path], { format: options.format ?? "auto", ...(options.tools === undefined ? {} : { tools: options.tools }) });
      transcripts.push(...imported.transcripts);
      problems.push(...imported.problems);
    } catch (error) {
      if (!isCtxkitError(error)) throw error;
      problems.push({ file: path, reason: error.message });
    }
  }
  // Each file was imported alone (so one undetectable file does not stop the rest): ids are made unique across them here.
  makeIdsUnique(transcripts);
  const selected = options.limit === undefined ? transcripts : transcripts.slice(0, options.limit);
  const analyzer = options.analyzer ?? createTranscriptAnalyzer(options);
  const analyzed = selected.map((transcript) => analyzer.analyze(transcript));
  return { transcripts: analyzed, totals: computeOverallTotals(analyzed), problems, skippedTranscripts: transcripts.length - selected.length };
}
