import {
  createQwen3PromptMeter,
  createTranscriptAnalyzer,
  toRenderedCallText,
  type AnalyzedTranscript,
  type ImportedTranscript,
  type RenderedCallText,
  type TranscriptAnalyzerOptions,
} from "../inspect/index.js";
import { getTokenCounter } from "../tokens/index.js";

/** What the exact pass needs besides the transcripts; plain data, so it crosses to a worker thread. */
export type ExactAnalysisOptions = Pick<TranscriptAnalyzerOptions, "rendering" | "pricing" | "cacheWriteTtl">;

/** The exact Qwen3 counts of the viewed runs and their rendered prompts, from one meter whose caches grow with the runs. */
export interface ExactAnalysisCore {
  analyze(transcripts: readonly ImportedTranscript[]): AnalyzedTranscript[];
  /** The template text of one call of the last analysed transcripts, shaded up to `reusableTokens`. */
  render(runIndex: number, callIndex: number, reusableTokens: number): RenderedCallText | undefined;
}

/**
 * The exact analysis the viewer runs off the main thread: one meter for every reload, so a
 * session that grows costs its new calls' tokens, and a call's prompt is assembled from cached
 * segments rather than tokenized again.
 */
export function createExactAnalysisCore(options: ExactAnalysisOptions): ExactAnalysisCore {
  const meter = createQwen3PromptMeter({ rendering: options.rendering });
  const analyzer = createTranscriptAnalyzer({ ...options, tokenizer: "qwen3", meter });
  const counter = getTokenCounter("qwen3");
  let latest: readonly ImportedTranscript[] = [];
  return {
    analyze(transcripts) {
      latest = transcripts;
      return transcripts.map((transcript) => analyzer.analyze(transcript));
    },
    render(runIndex, callIndex, reusableTokens) {
      const request = latest[runIndex]?.calls[callIndex]?.request;
      const rendered = request === undefined ? undefined : meter.measure(request).rendered;
      return rendered === undefined ? undefined : toRenderedCallText(rendered, reusableTokens, (tokens) => counter.decode!(tokens));
    },
  };
}
