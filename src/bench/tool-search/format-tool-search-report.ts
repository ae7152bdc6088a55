import { formatTextTable } from "../text-table.js";
import type { ToolSearchBenchReport } from "./run-tool-search-bench.js";

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
  const lines = [
    `Tool search over ${report.catalog.tools} real tools in one index: ${sources}.`,
    `Queries split ${report.split}.`,
    "",
    table,
    "",
    `Shipped defaults: ${JSON.stringify(report.defaults)}`,
  ];
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
  const goal = report.goal;
  const measured = report.rows.find((row) => row.arm === "defaults" && row.half === "measure");
  lines.push(
    "",
    goal.met
      ? `Goal met: measure recall@5 ≥ ${goal.recallAt5}, MRR ≥ ${goal.mrr}, ≥ ${goal.minTools} tools, < ${goal.maxMicrosecondsPerQuery} µs per query.`
      : `Goal not met: measure recall@5 ${fixed(measured?.recallAt5)} (goal ≥ ${goal.recallAt5}), MRR ${fixed(measured?.mrr)} (≥ ${goal.mrr}), ${report.catalog.tools} tools (≥ ${goal.minTools}), ${speed.microsecondsPerQuery} µs per query (< ${goal.maxMicrosecondsPerQuery}). ` +
          "Lexical search (BM25F, stems, synonyms, typo fixes) finds a tool only through words, stems and listed synonyms it shares with the query; word tables fitted to these queries would only hide that. Meaning beyond words needs an embedding model, which ctxkit does not ship; whether one would reach the goal is not measured here.",
  );
  return lines.join("\n");
}

function fixed(value: number | undefined): string {
  return value === undefined ? "-" : value.toFixed(3);
}
