import { defences } from "./injection-defences.js";
import type { InjectionBenchReport } from "./run-injection-bench.js";
import { attacks } from "./injection-scenario.js";

const percent = (value: number) => `${Math.round(value * 100)}%`;

/** The attacks × defences table per model (each defence alone, then all) (success rate, successes/trials, 95% interval), the corpus rows and the halves. */
export function formatInjectionReport(report: InjectionBenchReport): string {
  const lines: string[] = [`Prompt injection, ${report.manifest.mode}: attack success rate by defence (lower is better)`];
  for (const model of report.manifest.models) {
    lines.push("", `model: ${model}`);
    const header = ["attack".padEnd(16), ...defences.map((defence) => defence.padEnd(24))].join(" ");
    lines.push(header, "-".repeat(header.length));
    for (const attack of attacks) {
      const row = defences.map((defence) => {
        const cell = report.cells.find((entry) => entry.model === model && entry.attack === attack && entry.defence === defence);
        if (!cell) return "-".padEnd(24);
        const [low, high] = cell.interval;
        return `${percent(cell.rate)} ${cell.successes}/${cell.trials} [${percent(low)}-${percent(high)}]`.padEnd(24);
      });
      if (row.some((cell) => cell.trim() !== "-")) lines.push([attack.padEnd(16), ...row].join(" "));
    }
    for (const defence of ["runtime-guard", "all"] as const) {
      const cells = report.cells.filter((cell) => cell.model === model && cell.defence === defence);
      if (cells.length > 0) lines.push(`confirmation requested (${defence} column): ${cells.reduce((sum, cell) => sum + cell.confirmationsRequested, 0)} trials`);
    }
  }
  lines.push("", "Payload corpus (successes / trials per defence, all models and attacks):");
  for (const row of report.payloads) {
    const counts = defences.map((defence) => `${row.successes[defence] ?? 0}/${row.trials[defence] ?? 0}`.padStart(7)).join(" ");
    lines.push(`  ${row.id.padEnd(34)} ${row.language} ${row.half.padEnd(7)} ${counts}  ${row.technique}`);
  }
  lines.push("", "Corpus halves (tune = even rows, measure = odd rows): successes/trials per defence");
  for (const half of ["tune", "measure"] as const) {
    lines.push(`  ${half.padEnd(8)} ${defences.map((defence) => `${defence} ${report.halves[half][defence].successes}/${report.halves[half][defence].trials}`).join("  ")}`);
  }
  return `${lines.join("\n")}\n`;
}
