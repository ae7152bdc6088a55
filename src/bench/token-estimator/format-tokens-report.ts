import { formatInteger, formatTextTable } from "../text-table.js";
import type { CategoryError } from "./estimator-error.js";
import type { TokensBenchResult } from "./run-tokens-bench.js";

/** The error table (one row per category, the sum as footer), the throughput table and what was skipped. */
export function formatTokensReport(result: TokensBenchResult): string {
  const row = (category: CategoryError) => [
    category.name,
    formatInteger(category.texts),
    formatInteger(category.characters),
    formatInteger(category.exact.qwen3),
    formatInteger(category.exact.o200k),
    signedPercent(category.error.qwen3.charsOver4),
    signedPercent(category.error.qwen3.balanced),
    signedPercent(category.error.qwen3.matching),
    signedPercent(category.error.o200k.charsOver4),
    signedPercent(category.error.o200k.balanced),
    signedPercent(category.error.o200k.matching),
  ];
  const errors = formatTextTable(
    ["category", "texts", "chars", "Qwen3 tok", "o200k tok", "c/4:Q3", "bal:Q3", "qwen3:Q3", "c/4:o200k", "bal:o200k", "o200k:o200k"],
    result.categories.map(row),
    result.categories.length > 1 ? { footer: row(result.all) } : {},
  );
  const speed = formatTextTable(
    ["counter", "load", "count time", "MB/s"],
    result.throughput.map((counter) => [
      counter.counter,
      counter.loadMs === undefined ? "-" : `${formatInteger(counter.loadMs)} ms`,
      `${(counter.countMs / 1000).toFixed(2)} s`,
      counter.megabytesPerSecond.toFixed(2),
    ]),
  );
  const { target } = result;
  const verdict =
    target.worst === null
      ? "no category to judge"
      : `${target.met ? "met" : "NOT met"} (worst: ${signedPercent(target.worst.error)} against ${target.worst.tokenizer} on ${target.worst.category})`;
  return (
    `tokens: the estimator against the exact tokenizers, aggregate relative error (Σestimate − Σexact) / Σexact\n\n` +
    `${errors}\n\n` +
    `c/4: ⌈chars/4⌉ per text. bal: the estimator's balanced profile. qwen3:Q3, o200k:o200k: the profile fitted to that tokenizer.\n` +
    `Target: matching profile within ±${(target.maxAbsError * 100).toFixed(0)}% on every category — ${verdict}.\n` +
    result.categories.map((category) => `  ${category.name}: ${category.source}\n`).join("") +
    result.skipped.map((category) => `  ${category.name}: skipped, missing ${category.missing.join(", ")}\n`).join("") +
    `\nThroughput on the same ${result.megabytes.toFixed(2)} MB (UTF-8) of text, one call per text:\n\n${speed}\n`
  );
}

function signedPercent(share: number): string {
  return `${share >= 0 ? "+" : ""}${(share * 100).toFixed(1)}%`;
}
