import type { CommandOptions } from "../cli-options.js";
import { refuseWordsOf } from "../refuse-extra-arguments.js";
import type { CliIo } from "../cli-io.js";
import { disclosureBenchCommand, disclosureBenchHelp, disclosureBenchOptions } from "./bench/disclosure-bench-command.js";
import { durableBenchCommand, durableBenchHelp, durableBenchOptions } from "./bench/durable-bench-command.js";
import { guardBenchCommand, guardBenchHelp, guardBenchOptions } from "./bench/guard-bench-command.js";
import { hardeningBenchCommand, hardeningBenchHelp, hardeningBenchOptions } from "./bench/hardening-bench-command.js";
import { isolationBenchCommand, isolationBenchHelp, isolationBenchOptions } from "./bench/isolation-bench-command.js";
import { injectionBenchCommand, injectionBenchHelp, injectionBenchOptions } from "./bench/injection-bench-command.js";
import { kvCacheBenchCommand, kvCacheBenchHelp, kvCacheBenchOptions } from "./bench/kv-cache-bench-command.js";
import { servingBenchCommand, servingBenchHelp, servingBenchOptions } from "./bench/serving-bench-command.js";
import { startupBenchCommand, startupBenchHelp, startupBenchOptions } from "./bench/startup-bench-command.js";
import { statusBarBenchCommand, statusBarBenchHelp, statusBarBenchOptions } from "./bench/status-bar-bench-command.js";
import { tauBenchCommand, tauBenchHelp, tauBenchHelpFor, tauSubcommands } from "./bench/tau-bench-command.js";
import { tokensBenchCommand, tokensBenchHelp, tokensBenchOptions } from "./bench/tokens-bench-command.js";
import { tracingBenchCommand, tracingBenchHelp, tracingBenchOptions } from "./bench/tracing-bench-command.js";
import { toolSearchBenchCommand, toolSearchBenchHelp, toolSearchBenchOptions } from "./bench/tool-search-bench-command.js";
import { viewBenchCommand, viewBenchHelp, viewBenchOptions } from "./bench/view-bench-command.js";

type BenchCommand = { run: (args: string[], io: CliIo) => Promise<number>; help: string; options?: CommandOptions; summary: string };

const benches: Record<string, BenchCommand> = {
  disclosure: { run: disclosureBenchCommand, help: disclosureBenchHelp, options: disclosureBenchOptions, summary: "skills and deferred tools: cache safety on the wire, prompt tokens, tool-search quality" },
  durable: { run: durableBenchCommand, help: durableBenchHelp, options: durableBenchOptions, summary: "durable runs on worker processes killed on a schedule: lost runs, repeated side effects, recovery time, scaling" },
  guard: { run: guardBenchCommand, help: guardBenchHelp, options: guardBenchOptions, summary: "the prefix guard's false alarms and misses against what is really sent (old vs new)" },
  hardening: { run: hardeningBenchCommand, help: hardeningBenchHelp, options: hardeningBenchOptions, summary: "fault, fuzz and abuse trials: freezes, crashes, escapes, silent merges, lost records" },
  isolation: { run: isolationBenchCommand, help: isolationBenchHelp, options: isolationBenchOptions, summary: "main context vs a sub-agent vs a fork on the same code search: context size, tokens, cache, cost" },
  injection: { run: injectionBenchCommand, help: injectionBenchHelp, options: injectionBenchOptions, summary: "prompt injection: three attacks against four defences (scripted adversaries, or a live model)" },
  "kv-cache": { run: kvCacheBenchCommand, help: kvCacheBenchHelp, options: kvCacheBenchOptions, summary: "prompt-cache reuse under six ways of managing the context (τ-bench dialogues)" },
  startup: { run: startupBenchCommand, help: startupBenchHelp, options: startupBenchOptions, summary: "CLI start-up (--help, run --help, the start of a run) side by side with a bare node" },
  "status-bar": { run: statusBarBenchCommand, help: statusBarBenchHelp, options: statusBarBenchOptions, summary: "the agent status bar: what it costs, and what it changes in a model's behaviour" },
  serving: { run: servingBenchCommand, help: servingBenchHelp, options: servingBenchOptions, summary: "time to first token with the prompt prefix kept vs changed (embedded engine or a server)" },
  tau: { run: tauBenchCommand, help: tauBenchHelp, summary: "τ-bench airline/retail: gold actions, replay of recorded dialogues, live runs with prompt variants" },
  tokens: { run: tokensBenchCommand, help: tokensBenchHelp, options: tokensBenchOptions, summary: "the built-in token estimator: its error against exact tokenizers, and its speed" },
  "tool-search": { run: toolSearchBenchCommand, help: toolSearchBenchHelp, options: toolSearchBenchOptions, summary: "tool_search on real MCP catalogs: recall@5 and MRR of short, misspelt queries; speed at 500 tools" },
  tracing: { run: tracingBenchCommand, help: tracingBenchHelp, options: tracingBenchOptions, summary: "what OpenTelemetry tracing costs a 500-call run's loop: untraced vs tracing off vs on" },
  view: { run: viewBenchCommand, help: viewBenchHelp, options: viewBenchOptions, summary: "how fast 'ctxkit view' opens a 500-call, 100k-token-per-call run" },
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

/** Every benchmark command line (`kv-cache`, `tau run`, …) with its help and the flags it takes besides the common ones. */
export function benchCommandLines(): Array<{ words: string[]; help: string; options: CommandOptions }> {
  return Object.entries(benches).flatMap(([name, bench]) =>
    bench.options === undefined
      ? Object.entries(tauSubcommands).map(([command, tau]) => ({ words: [name, command], help: tau.help, options: tau.options }))
      : [{ words: [name], help: bench.help, options: bench.options }],
  );
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
  if (bench.options !== undefined) refuseWordsOf(rest, bench.options, `bench ${name}`);
  return bench.run(rest, io);
}

