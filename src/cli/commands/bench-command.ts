import type { CliIo } from "../cli-io.js";
import { disclosureBenchCommand, disclosureBenchHelp } from "./bench/disclosure-bench-command.js";
import { durableBenchCommand, durableBenchHelp } from "./bench/durable-bench-command.js";
import { guardBenchCommand, guardBenchHelp } from "./bench/guard-bench-command.js";
import { hardeningBenchCommand, hardeningBenchHelp } from "./bench/hardening-bench-command.js";
import { isolationBenchCommand, isolationBenchHelp } from "./bench/isolation-bench-command.js";
import { injectionBenchCommand, injectionBenchHelp } from "./bench/injection-bench-command.js";
import { kvCacheBenchCommand, kvCacheBenchHelp } from "./bench/kv-cache-bench-command.js";
import { servingBenchCommand, servingBenchHelp } from "./bench/serving-bench-command.js";
import { startupBenchCommand, startupBenchHelp } from "./bench/startup-bench-command.js";
import { statusBarBenchCommand, statusBarBenchHelp } from "./bench/status-bar-bench-command.js";
import { tauBenchCommand, tauBenchHelp, tauBenchHelpFor } from "./bench/tau-bench-command.js";
import { tokensBenchCommand, tokensBenchHelp } from "./bench/tokens-bench-command.js";
import { tracingBenchCommand, tracingBenchHelp } from "./bench/tracing-bench-command.js";
import { toolSearchBenchCommand, toolSearchBenchHelp } from "./bench/tool-search-bench-command.js";
import { viewBenchCommand, viewBenchHelp } from "./bench/view-bench-command.js";

type BenchCommand = { run: (args: string[], io: CliIo) => Promise<number>; help: string; summary: string };

const benches: Record<string, BenchCommand> = {
  disclosure: { run: disclosureBenchCommand, help: disclosureBenchHelp, summary: "skills and deferred tools: cache safety on the wire, prompt tokens, tool-search quality" },
  durable: { run: durableBenchCommand, help: durableBenchHelp, summary: "durable runs on worker processes killed on a schedule: lost runs, repeated side effects, recovery time, scaling" },
  guard: { run: guardBenchCommand, help: guardBenchHelp, summary: "the prefix guard's false alarms and misses against what is really sent (old vs new)" },
  hardening: { run: hardeningBenchCommand, help: hardeningBenchHelp, summary: "fault, fuzz and abuse trials: freezes, crashes, escapes, silent merges, lost records" },
  isolation: { run: isolationBenchCommand, help: isolationBenchHelp, summary: "main context vs a sub-agent vs a fork on the same code search: context size, tokens, cache, cost" },
  injection: { run: injectionBenchCommand, help: injectionBenchHelp, summary: "prompt injection: three attacks against four defences (scripted adversaries, or a live model)" },
  "kv-cache": { run: kvCacheBenchCommand, help: kvCacheBenchHelp, summary: "prompt-cache reuse under six ways of managing the context (τ-bench dialogues)" },
  startup: { run: startupBenchCommand, help: startupBenchHelp, summary: "CLI start-up (--help, run --help, the start of a run) side by side with a bare node" },
  "status-bar": { run: statusBarBenchCommand, help: statusBarBenchHelp, summary: "the agent status bar: what it costs, and what it changes in a model's behaviour" },
  serving: { run: servingBenchCommand, help: servingBenchHelp, summary: "time to first token with the prompt prefix kept vs changed (embedded engine or a server)" },
  tau: { run: tauBenchCommand, help: tauBenchHelp, summary: "τ-bench airline/retail: gold actions, replay of recorded dialogues, live runs with prompt variants" },
  tokens: { run: tokensBenchCommand, help: tokensBenchHelp, summary: "the built-in token estimator: its error against exact tokenizers, and its speed" },
  "tool-search": { run: toolSearchBenchCommand, help: toolSearchBenchHelp, summary: "tool_search on real MCP catalogs: recall@5 and MRR of short, misspelt queries; speed at 500 tools" },
  tracing: { run: tracingBenchCommand, help: tracingBenchHelp, summary: "what OpenTelemetry tracing costs a 500-call run's loop: untraced vs tracing off vs on" },
  view: { run: viewBenchCommand, help: viewBenchHelp, summary: "how fast 'ctxkit view' opens a 500-call, 100k-token-per-call run" },
};

export const benchHelp = `Usage: ctxkit bench <name> [options]

Reproducible benchmarks on recorded runs. Each prints a table and writes JSON (see its --help).

${Object.entries(benches)
  .map(([name, bench]) => `  ${name.padEnd(12)} ${bench.summary}`)
  .join("\n")}

Run 'ctxkit bench <name> --help' for a benchmark's options.
`;

/** The help of `ctxkit bench <name>` (of `ctxkit bench tau <command>`), or of `ctxkit bench` when the name is not a benchmark. */
export function benchHelpFor(name: string | undefined, subcommand?: string): string {
  if (name === "tau") return tauBenchHelpFor(subcommand);
  return (name !== undefined && Object.hasOwn(benches, name) && benches[name]?.help) || benchHelp;
}

/** `ctxkit bench <name>`: dispatches to one benchmark. */
export async function benchCommand(args: string[], io: CliIo): Promise<number> {
  const [name, ...rest] = args;
  if (name === "--help" || name === "-h") {
    io.stdout.write(benchHelp);
    return 0;
  }
  if (name === undefined) {
    io.stderr.write(`ctxkit bench: say which benchmark to run.\n\n${benchHelp}`);
    return 2;
  }
  const bench = Object.hasOwn(benches, name) ? benches[name] : undefined;
  if (!bench) {
    io.stderr.write(`ctxkit bench: unknown benchmark '${name}'.\n\n${benchHelp}`);
    return 2;
  }
  return bench.run(rest, io);
}
