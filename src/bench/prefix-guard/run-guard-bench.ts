import { formatTextTable } from "../text-table.js";
import type { Dialogue } from "../kv-cache/context-modes.js";
import { guardScenarios, type GuardScenario } from "./guard-scenarios.js";
import { guardNames, scoreScenario, type GuardScore } from "./measure-guard.js";

export interface GuardBenchResult {
  dialogues: number;
  scenarios: Array<{ scenario: GuardScenario } & GuardScore>;
}

/** Every scenario over the same dialogues. Pure apart from the tokenizer's lazy load. */
export function runGuardBench(dialogues: readonly Dialogue[], onScenario?: (done: number, total: number) => void): GuardBenchResult {
  const scenarios = guardScenarios.map((scenario, index) => {
    const score = scoreScenario(dialogues, scenario);
    onScenario?.(index + 1, guardScenarios.length);
    return { scenario, ...score };
  });
  return { dialogues: dialogues.length, scenarios };
}

export function formatGuardBench(result: GuardBenchResult): string {
  const header = ["scenario", "pairs", "real breaks", ...guardNames.map((name) => `${name}: false alarms / misses`)];
  const rows = result.scenarios.map((row) => [
    row.scenario,
    String(row.pairs),
    String(row.realBreaks),
    ...guardNames.map((name) => `${row.falseAlarms[name]} / ${row.misses[name]}`),
  ]);
  const total = (pick: (row: GuardBenchResult["scenarios"][number]) => number) => String(result.scenarios.reduce((sum, row) => sum + pick(row), 0));
  rows.push([
    "all",
    total((row) => row.pairs),
    total((row) => row.realBreaks),
    ...guardNames.map((name) => `${total((row) => row.falseAlarms[name])} / ${total((row) => row.misses[name])}`),
  ]);
  return formatTextTable(header, rows);
}
