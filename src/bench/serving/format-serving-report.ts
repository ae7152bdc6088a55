import { formatTextTable } from "../text-table.js";
import type { ServingBenchResult, ServingVariantResult } from "./run-serving-bench.js";

const milliseconds = (value: number | null): string => (value === null ? "—" : `${Math.round(value)}`);
const count = (value: number | null): string => (value === null ? "—" : `${Math.round(value)}`);

/** The experiment 2-1 tables: TTFT per variant and size, then concurrency when measured. */
export function formatServingReport(result: ServingBenchResult): string {
  const variant = (row: ServingBenchResult["rows"][number], name: ServingVariantResult["variant"]) => row.variants.find((entry) => entry.variant === name);
  const ttft = formatTextTable(
    ["prefix tokens", "cold", "kept", "status tail", "1st token changed", "tool reordered", "status in system", "changed/kept", "reused (kept)", "tokens/s"],
    result.rows.map((row) => [
      `${row.prefixTokens}`,
      milliseconds(row.ttftColdMs),
      milliseconds(row.ttftKeptMs),
      milliseconds(variant(row, "status_tail")?.ttftMedianMs ?? null),
      milliseconds(row.ttftChangedMs),
      milliseconds(variant(row, "tool_reordered")?.ttftMedianMs ?? null),
      milliseconds(variant(row, "status_in_system")?.ttftMedianMs ?? null),
      row.changedOverKept === null ? "—" : `${row.changedOverKept}×`,
      count(row.reusedTokens),
      count(row.tokensPerSecond),
    ]),
    { leftColumns: [] },
  );
  const reuse = formatTextTable(
    ["prefix tokens", "kept", "status tail", "1st token changed", "tool reordered", "status in system"],
    result.rows.map((row) => [
      `${row.prefixTokens}`,
      ...(["kept", "status_tail", "first_token_changed", "tool_reordered", "status_in_system"] as const).map((name) => count(variant(row, name)?.reusedTokensMedian ?? null)),
    ]),
    { leftColumns: [] },
  );
  const parts = [
    `Prefix kept vs changed (${result.engine}, ${result.model}): time to first token in ms, median of ${result.runs} runs; each call follows the base request.`,
    ttft,
    "",
    "Prompt tokens the engine reported as reused (cached), median:",
    reuse,
  ];
  if (result.concurrency.length > 0) {
    parts.push(
      "",
      "Concurrent requests (median TTFT in ms):",
      formatTextTable(
        ["prefix tokens", "concurrency", "kept", "1st token changed"],
        result.concurrency.map((row) => [`${row.prefixTokens}`, `${row.concurrency}`, milliseconds(row.ttftKeptMedianMs), milliseconds(row.ttftChangedMedianMs)]),
        { leftColumns: [] },
      ),
    );
  }
  if (result.errors.length > 0) parts.push("", `${result.errors.length} calls failed; first: ${result.errors[0]}`);
  return parts.join("\n");
}
