import { createTranscriptAnalyzer, type ImportedTranscript, type InspectTokenizer } from "../../inspect/index.js";

export interface QuarterTiming {
  /** Calls in this quarter of the transcript. */
  calls: number;
  /** Mean prompt tokens of those calls: the context size the quarter ran at. */
  meanPromptTokens: number;
  msPerCall: number;
}

export interface InspectTiming {
  name: string;
  calls: number;
  finalPromptTokens: number;
  /** Whole `analyze()` time: measuring every call, totals and findings. */
  totalMs: number;
  msPerCall: number;
  /** Per-call time by quarter of the run (first to last): flat when cost does not grow with context. */
  quarters: QuarterTiming[];
  /** Share of segment lookups served from the cache (each distinct segment is tokenized once). */
  segmentCacheHitRate: number;
}

/** Times `ctxkit inspect`'s analysis of one transcript with a fresh analyzer (the tokenizer is loaded beforehand). */
export function measureInspectPerformance(transcript: ImportedTranscript, options: { tokenizer?: InspectTokenizer; rendering?: "incremental" | "full" } = {}): InspectTiming {
  const perCall: number[] = [];
  const analyzer = createTranscriptAnalyzer({ ...options, onCallMeasured: (index, milliseconds) => (perCall[index] = milliseconds) });
  const started = performance.now();
  const analyzed = analyzer.analyze(transcript);
  const totalMs = performance.now() - started;
  const stats = analyzer.stats();
  const quarters: QuarterTiming[] = [];
  for (let quarter = 0; quarter < 4; quarter++) {
    const from = Math.floor((analyzed.calls.length * quarter) / 4);
    const to = Math.floor((analyzed.calls.length * (quarter + 1)) / 4);
    const calls = analyzed.calls.slice(from, to);
    const times = perCall.slice(from, to);
    quarters.push({
      calls: calls.length,
      meanPromptTokens: mean(calls.map((call) => call.promptTokens)),
      msPerCall: mean(times),
    });
  }
  return {
    name: transcript.id,
    calls: analyzed.calls.length,
    finalPromptTokens: analyzed.calls.at(-1)?.promptTokens ?? 0,
    totalMs,
    msPerCall: analyzed.calls.length === 0 ? 0 : totalMs / analyzed.calls.length,
    quarters,
    segmentCacheHitRate: stats.segmentLookups === 0 ? 0 : (stats.segmentLookups - stats.cachedSegments) / stats.segmentLookups,
  };
}

const mean = (values: readonly number[]) => (values.length === 0 ? 0 : values.reduce((total, value) => total + value, 0) / values.length);
