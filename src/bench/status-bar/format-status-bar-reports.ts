import type { StatusBarLiveReport } from "./run-status-bar-live-bench.js";
import type { StatusBarCostReport } from "./run-status-bar-cost-bench.js";
import { statusBarModes, type CacheModel, type StatusBarCostRow } from "./measure-status-bar-cost.js";
import { statusBarArms } from "./status-bar-arms.js";
import { formatDollars, formatInteger, formatTextTable } from "../text-table.js";

/** Per-run tokens and prompt cost of replace, append and auto under one cache model, then totals under both. */
export function formatCostReport(report: StatusBarCostReport, cacheModel: CacheModel): string {
  const cheapest = (row: StatusBarCostRow) => {
    const costs = row.costs[cacheModel];
    return statusBarModes.reduce((best, mode) => (costs[mode].inputCost < costs[best].inputCost ? mode : best), statusBarModes[0] as (typeof statusBarModes)[number]);
  };
  const auto = (row: StatusBarCostRow) => {
    const decisions = row.autoDecisions[cacheModel];
    return decisions.replace === 0 ? "append" : decisions.append === 0 ? "replace" : `${decisions.append}A/${decisions.replace}R`;
  };
  const rows = report.rows.map((row) => [
    row.id,
    String(row.calls),
    formatInteger(row.statusTokens),
    formatInteger(row.appendedTokens),
    row.alpha.toFixed(2),
    auto(row),
    ...statusBarModes.map((mode) => formatDollars(row.costs[cacheModel][mode].inputCost)),
    cheapest(row),
  ]);
  const perRun = formatTextTable(["run", "calls", "S", "R", "α", "auto chose", "replace", "append", "auto", "cheapest"], rows);
  const totals = report.totals.flatMap((total) =>
    (["kv", "prompt"] as const).map((model) => [
      `${total.part} (${total.runs} runs, ${total.calls} calls)`,
      model,
      ...statusBarModes.flatMap((mode) => {
        const cost = total.costs[model][mode];
        return [formatInteger(cost.promptTokens), `${((cost.cachedTokens / Math.max(1, cost.promptTokens)) * 100).toFixed(1)}%`, formatDollars(cost.inputCost)];
      }),
    ]),
  );
  const header = ["corpus", "cache", ...statusBarModes.flatMap((mode) => [`${mode} tokens`, "cached", "cost"])];
  return (
    `Per run, prompt cost with the ${cacheModel} cache model (S = status tokens, R = tokens appended per call, both means; ${report.counter} counts):\n\n` +
    `${perRun}\n\nTotals (kv: the cache keeps the previous request and its reply; prompt: only the previous request):\n\n${formatTextTable(header, totals)}\n`
  );
}

/** Success, iterations and tokens per arm; one success column per task. */
export function formatLiveReport(report: StatusBarLiveReport): string {
  const tasks = [...new Set(report.results.map((result) => result.task))];
  const arms = statusBarArms.filter((arm) => report.results.some((result) => result.arm === arm));
  const rows = arms.map((arm) => {
    const mine = report.results.filter((result) => result.arm === arm);
    const perTask = tasks.map((task) => {
      const runs = mine.filter((result) => result.task === task);
      return `${runs.filter((result) => result.success).length}/${runs.length}`;
    });
    const iterations = mine.reduce((total, result) => total + result.iterations, 0) / Math.max(1, mine.length);
    const tokens = mine.reduce((total, result) => total + result.usage.inputTokens, 0);
    const output = mine.reduce((total, result) => total + result.usage.outputTokens, 0);
    return [arm, ...perTask, `${mine.filter((result) => result.success).length}/${mine.length}`, iterations.toFixed(1), formatInteger(tokens), formatInteger(output)];
  });
  return `Model: ${report.model}; ${report.repeats} run(s) per task and arm.\n\n${formatTextTable(["arm", ...tasks, "success", "iterations", "prompt tokens", "output tokens"], rows)}\n`;
}
