import type { DelegationBenchResult, DelegationRun } from "./run-delegation-bench.js";
import type { IsolationArm } from "./scripted-searcher.js";

const armLabels: Record<IsolationArm, string> = { main: "(a) main agent greps and reads", explore: "(b) delegates to explore", fork: "(c) delegates to a fork" };

/** The delegation section's tables: means per arm, then the main context per query. */
export function formatDelegationReport(result: DelegationBenchResult): string {
  const number = (value: number) => Math.round(value).toLocaleString("en-US");
  const percent = (value: number | undefined) => (value === undefined ? "n/a" : `${(value * 100).toFixed(1)}%`);
  const dollars = (value: number | undefined) => (value === undefined ? "n/a" : `$${value.toFixed(4)}`);
  const header = ["arm", "main ctx tokens", "total tokens", "cached share", "child 1st call cached", `cost (${result.pricingModel})`];
  const rows = result.arms.map((arm) => [armLabels[arm.arm], number(arm.meanMainContextTokens), number(arm.meanTotalTokens), percent(arm.cachedShare), percent(arm.meanChildFirstCallCachedShare), dollars(arm.meanCost)]);
  const queries = [...new Set(result.runs.map((run) => run.query))];
  const perQuery = queries.map((query) => {
    const of = (arm: IsolationArm) => result.runs.find((run) => run.query === query && run.arm === arm);
    const cell = (run: DelegationRun | undefined) => (run ? `${number(run.mainContextTokens)} / ${number(run.totalTokens)}` : "n/a");
    return [query, cell(of("main")), cell(of("explore")), cell(of("fork"))];
  });
  return [
    `Means over ${queries.length} "find where X is handled" task${queries.length === 1 ? "" : "s"} (main ctx = prompt tokens of the main agent's last call):`,
    table(header, rows),
    "",
    "Per task, main ctx tokens / total tokens:",
    table(["task", "(a) main", "(b) explore", "(c) fork"], perQuery),
    "",
    "The server caches byte prefixes of the JSON body, where OpenAI's format puts the tools first: explore's first",
    "call shares the read-only tool definitions it has in common with the main agent (sorted by name), a fork's",
    "shares the main agent's whole request. Output tokens are the server's fixed 20 per call.",
  ].join("\n");
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((cell, column) => Math.max(cell.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: string[]) => cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join("  ");
  return [line(header), ...rows.map(line)].join("\n");
}
