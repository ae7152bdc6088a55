import type { CliIo } from "../cli-io.js";
import { guardBenchCommand, guardBenchHelp } from "./bench/guard-bench-command.js";
import { kvCacheBenchCommand, kvCacheBenchHelp } from "./bench/kv-cache-bench-command.js";
import { servingBenchCommand, servingBenchHelp } from "./bench/serving-bench-command.js";
import { statusBarBenchCommand, statusBarBenchHelp } from "./bench/status-bar-bench-command.js";
import { tauBenchCommand, tauBenchHelp } from "./bench/tau-bench-command.js";
import { tokensBenchCommand, tokensBenchHelp } from "./bench/tokens-bench-command.js";
import { viewBenchCommand, viewBenchHelp } from "./bench/view-bench-command.js";

type BenchCommand = { run: (args: string[], io: CliIo) => Promise<number>; help: string; summary: string };

const benches: Record<string, BenchCommand> = {
  guard: { run: guardBenchCommand, help: guardBenchHelp, summary: "the prefix guard's false alarms and misses against what is really sent (old vs new)" },
  "kv-cache": { run: kvCacheBenchCommand, help: kvCacheBenchHelp, summary: "experiment 2-3: context-management modes and prompt-cache reuse" },
  "status-bar": { run: statusBarBenchCommand, help: statusBarBenchHelp, summary: "experiments 2-8/2-9: the agent status bar, its cost and its effect" },
  serving: { run: servingBenchCommand, help: servingBenchHelp, summary: "experiment 2-1: TTFT with the prompt prefix kept vs changed (embedded engine or a server)" },
  tau: { run: tauBenchCommand, help: tauBenchHelp, summary: "issue 16: τ-bench airline/retail — gold actions, replay of recorded dialogues, live runs (experiment 2-4)" },
  tokens: { run: tokensBenchCommand, help: tokensBenchHelp, summary: "issue 4: the token estimator's error against the exact tokenizers, and its speed" },
  view: { run: viewBenchCommand, help: viewBenchHelp, summary: "issue 18: how fast 'ctxkit view' opens a 500-call, 100k-token-per-call run" },
};

export const benchHelp = `Usage: ctxkit bench <name> [options]

Reproducible benchmarks of the seed's experiments. Each prints a table and can write JSON (--json).

${Object.entries(benches)
  .map(([name, bench]) => `  ${name.padEnd(12)} ${bench.summary}`)
  .join("\n")}

Run 'ctxkit bench <name> --help' for a benchmark's options.
`;

/** `ctxkit bench <name>`: dispatches to one benchmark. */
export async function benchCommand(args: string[], io: CliIo): Promise<number> {
  const [name, ...rest] = args;
  if (name === undefined || name === "--help" || name === "-h") {
    io.stdout.write(benchHelp);
    return name === undefined ? 2 : 0;
  }
  const bench = benches[name];
  if (!bench) {
    io.stderr.write(`ctxkit bench: unknown benchmark '${name}'.\n\n${benchHelp}`);
    return 2;
  }
  return bench.run(rest, io);
}
