import { formatTextTable } from "../text-table.js";
import { embeddingsArm, wordVectorsArm, type ToolSearchBenchReport } from "./run-tool-search-bench.js";

/** The tables of `ctxkit bench tool-search`. */
export function formatToolSearchReport(report: ToolSearchBenchReport): string {
  const arms = [...new Set(report.rows.map((row) => row.arm))];
  const cell = (arm: string, half: "tune" | "measure") => report.rows.find((row) => row.arm === arm && row.half === half);
  const table = formatTextTable(
    ["settings", "tune queries", "recall@5", "MRR", "measure queries", "recall@5", "MRR"],
    arms.map((arm) => {
      const tune = cell(arm, "tune");
      const measure = cell(arm, "measure");
      return [arm, String(tune?.queries ?? 0), fixed(tune?.recallAt5), fixed(tune?.mrr), String(measure?.queries ?? 0), fixed(measure?.recallAt5), fixed(measure?.mrr)];
    }),
  );
  const sources = report.catalog.sources.map((source) => `${source.source} (${source.tools})`).join(", ");
  const setCell = (arm: string, set: string, half: "tune" | "measure") => report.bySet.find((row) => row.arm === arm && row.set === set && row.half === half);
  const setTable = formatTextTable(
    ["settings", "queries", "tune queries", "recall@5", "MRR", "measure queries", "recall@5", "MRR"],
    (["first", "round two", "round three"] as const).flatMap((set) =>
      [...new Set(report.bySet.map((row) => row.arm))].map((arm) => {
        const tune = setCell(arm, set, "tune");
        const measure = setCell(arm, set, "measure");
        return [arm, set, String(tune?.queries ?? 0), fixed(tune?.recallAt5), fixed(tune?.mrr), String(measure?.queries ?? 0), fixed(measure?.recallAt5), fixed(measure?.mrr)];
      }),
    ),
  );
  const lines = [
    `Tool search over ${report.catalog.tools} real tools in one index: ${sources}.`,
    `Queries split ${report.split}. All queries, every set:`,
    "",
    table,
    "",
    "Each set alone (first: the set of issue 29's first table; round two and round three: written later, each before any result on it):",
    "",
    setTable,
    "",
    `Shipped defaults: ${JSON.stringify(report.defaults)}`,
  ];
  if (report.wordVectors) {
    lines.push(`Word vectors (an option, not shipped): ${report.wordVectors.words} of the benchmark's words found in ${report.wordVectors.file} (${report.wordVectors.dimensions} dimensions).`);
  }
  lines.push(
    "",
    `Queries written by others (${report.thirdParty.rows[0]?.queries ?? 0}: the Playwright cases of dpadron10/tool-search-mcp; never tuned on), same index:`,
    "",
    formatTextTable(["settings", "queries", "recall@5", "MRR"], report.thirdParty.rows.map((row) => [row.arm, String(row.queries), fixed(row.recallAt5), fixed(row.mrr)])),
  );
  if (report.tau) {
    lines.push(
      "",
      "τ-bench's own text as queries (airline dialogues' first user messages, retail instructions; recall = share of the task's gold tools in the first 5):",
      "",
      formatTextTable(["settings", "queries", "recall@5", "MRR"], report.tau.map((row) => [row.arm, String(row.queries), fixed(row.recallAt5), fixed(row.mrr)])),
    );
  }
  if (report.retuned) {
    lines.push("", `Re-tuned on the tune half (${report.retuned.configurationsTried} settings tried): ${JSON.stringify(report.retuned.options)} → measure recall@5 ${fixed(report.retuned.measure.recallAt5)}, MRR ${fixed(report.retuned.measure.mrr)}.`);
  }
  if (report.measureMisses.length > 0) {
    lines.push("", `Measure-half misses with the defaults (${report.measureMisses.length}):`, ...report.measureMisses.map((miss) => `  "${miss.query}" → ${miss.tool}; got ${miss.top.join(", ") || "nothing"}`));
  }
  const speed = report.speed;
  lines.push("", `Speed at ${speed.tools} tools, warm (after ${speed.warmUpRounds} untimed passes; the median of the timed passes): index built in ${speed.indexBuildMs} ms; search ${speed.microsecondsPerQuery} µs per query on average, p99 ${speed.p99Microseconds} µs (${speed.queries} searches).`);
  if (report.wordNet) lines.push(`WordNet table (${report.wordNet.words} words): read by the first search that needs it in ${report.wordNet.loadMs} ms, once per process.`);
  const vectorSpeed = report.speedWithWordVectors;
  if (vectorSpeed) lines.push(`With word vectors: index built in ${vectorSpeed.indexBuildMs} ms; search ${vectorSpeed.microsecondsPerQuery} µs per query on average, p99 ${vectorSpeed.p99Microseconds} µs.`);
  const embeddings = report.embeddings;
  if (embeddings) {
    const semanticSpeed = embeddings.speed;
    lines.push(
      "",
      `Embedding model (the "${embeddingsArm}" rows: its ranking fused with the defaults' by reciprocal rank): ${embeddings.label}.`,
      embeddings.fallbacks === 0
        ? "Every search got its embedding."
        : `${embeddings.fallbacks} searches fell back to words alone (and after 3 failures in a row, every later search of that set did): those rows measure words, not the model. First reason: ${embeddings.firstFallback ?? "-"}`,
      `With embeddings at ${semanticSpeed.tools} tools: the tools embedded in ${semanticSpeed.toolEmbeddingMs} ms (once per tool text); a search ${semanticSpeed.microsecondsPerQuery} µs on average, p99 ${semanticSpeed.p99Microseconds} µs, the query's embedding call included (${semanticSpeed.queries} searches); ctxkit's part without that call (BM25F, cosines, fusion) ${semanticSpeed.fusionMicrosecondsPerQuery} µs.`,
    );
    if (embeddings.measureMisses.length > 0) {
      lines.push(`Measure-half misses with embeddings (${embeddings.measureMisses.length}):`, ...embeddings.measureMisses.map((miss) => `  "${miss.query}" → ${miss.tool}; got ${miss.top.join(", ") || "nothing"}`));
    }
  }
  const goal = report.goal;
  const measured = report.rows.find((row) => row.arm === "defaults" && row.half === "measure");
  lines.push(
    "",
    goal.met
      ? `Goal met: measure recall@5 ≥ ${goal.recallAt5}, MRR ≥ ${goal.mrr}, ≥ ${goal.minTools} tools, < ${goal.maxMicrosecondsPerQuery} µs per query.`
      : `Goal not met: measure recall@5 ${fixed(measured?.recallAt5)} (goal ≥ ${goal.recallAt5}), MRR ${fixed(measured?.mrr)} (≥ ${goal.mrr}), ${report.catalog.tools} tools (≥ ${goal.minTools}), ${speed.microsecondsPerQuery} µs per query (< ${goal.maxMicrosecondsPerQuery}). ` +
          "Lexical search (BM25F, Porter stems, synonyms, typo fixes, file and URL hints; WordNet's related words opt-in, the \"defaults + WordNet\" row) finds a tool only through words, stems, listed synonyms and WordNet relations it shares with the query; word tables fitted to these queries would only hide that. " +
          (report.wordVectors ? `Static word vectors (the "${wordVectorsArm}" row) widen only words the catalog lacks. ` : "Static word vectors can be measured with --word-vectors. ") +
          (embeddings
            ? "The embeddings rows below measure the model given."
            : "A sentence-embedding model is measured with --embeddings-url and --embeddings-model (an OpenAI-compatible /v1/embeddings server) or --embedding-model-path (a GGUF file), which add the \"defaults + embeddings\" rows; none was given."),
  );
  if (embeddings) {
    const semanticMeasure = report.rows.find((row) => row.arm === embeddingsArm && row.half === "measure");
    lines.push(
      embeddings.goalMet
        ? `With embeddings (${embeddings.label}): goal met, measure recall@5 ${fixed(semanticMeasure?.recallAt5)}, MRR ${fixed(semanticMeasure?.mrr)}, ctxkit's part of a search ${embeddings.speed.fusionMicrosecondsPerQuery} µs (the embedding call adds the model's own time).`
        : `With embeddings (${embeddings.label}): goal not met, measure recall@5 ${fixed(semanticMeasure?.recallAt5)} (goal ≥ ${goal.recallAt5}), MRR ${fixed(semanticMeasure?.mrr)} (≥ ${goal.mrr}), ctxkit's part of a search ${embeddings.speed.fusionMicrosecondsPerQuery} µs (< ${goal.maxMicrosecondsPerQuery})${embeddings.fallbacks > 0 ? `, ${embeddings.fallbacks} fallbacks` : ""}.`,
    );
  }
  return lines.join("\n");
}

function fixed(value: number | undefined): string {
  return value === undefined ? "-" : value.toFixed(3);
}
