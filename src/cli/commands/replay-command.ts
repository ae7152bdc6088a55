import { writeFileSync } from "node:fs";
import { benchOutputPath } from "../bench-output-path.js";
import { createProgressBar } from "../progress-bar.js";
import { writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { formatPolicyTable, formatRunTable } from "../../bench/replay/format-replay-table.js";
import { loadRecordedRuns } from "../../bench/replay/load-recorded-runs.js";
import { formatMatrixTable } from "../../bench/replay/format-matrix-table.js";
import { runReplayBench, type ReplayBenchOptions, type ReplayReport } from "../../bench/replay/replay-bench.js";
import { agentComparatorNames, resolveReplayPolicyNames } from "../../bench/replay/replay-policies.js";
import { halfOf, replayHalves, type ReplayHalf } from "../../bench/replay/split-runs.js";
import { toEmittedRequest } from "../../bench/replay/to-emitted-request.js";
import { TRANSCRIPT_FORMATS, type TranscriptFormat } from "../../inspect/index.js";
import { defaultPricingCatalog, findModelPricing } from "../../tokens/pricing.js";
import { getTokenCounter, type TokenCounterName } from "../../tokens/index.js";
import { ConfigError } from "../../types/index.js";
import type { CliIo } from "../cli-io.js";
import { parseCommandLine, pickCommonOptions } from "../cli-options.js";
import { positiveIntegerFlag } from "../number-flags.js";
import { makeDirectoryTree, makeDirectoryTreeSync } from "../../types/make-directory-tree.js";

const defaultWindow = 128_000;
const defaultPricing = "gpt-4.1";
const defaultOut = "bench-results/replay.json";

export const replayHelp = `Usage: ctxkit replay <file|dir…> [options]

Replays recorded agent runs through context policies: the recorded model turns are kept, and the
context each call would have sent under the policy is rebuilt and measured. A directory stands for
its *.traj.json files (mini-swe-agent), else its *.json / *.jsonl files; an OpenHands V1
conversation folder (base_state.json and events/) is one run.

Options:
  --policy <a,b|all>      policies to compare (default all): ${resolveReplayPolicyNames("all").join(", ")}
  --window <tokens,…>     the context window; a call over it is an overflow (default ${defaultWindow}).
                          Several, comma-separated (16000,32000,64000), replay each and show one table
  --pricing <model>       prices from the catalog (default ${defaultPricing}: automatic prefix caching, like the
                          recorded runs; cached tokens at the cache-read price)
  --tokenizer <name>      estimate (default, fast), qwen3, o200k or cl100k (exact, slower)
  --format <name>         auto (default), all, or one of: ${TRANSCRIPT_FORMATS.join(", ")}. all: search the
                          folders recursively for transcripts of every format (skipping other files)
                          and show each format apart
  --limit <runs>          replay only the first N runs (with --format all: of each format)
  --split <half>          tune, measure or both (default): each run's half is fixed by a hash of its
                          id; tune on one half, report the other (the table shows each half)
  --json                  print the report as JSON instead of tables
  --out <file>            also write the JSON report here (default ${defaultOut} inside the ctxkit project,
                          else a ctxkit-bench-results folder in the system's temporary directory)
  --emit-requests <dir>   write <dir>/<policy>/<run>.jsonl: one line per call with the messages sent
  --verbose               also print one row per run and policy

Exit codes: 0 done; 1 no run to replay (none could be read); 2 a usage error; 130 interrupted with
Ctrl-C.
`;

export const replayOptions = {
  ...pickCommonOptions("json"),
  policy: { type: "string" },
  window: { type: "string", number: { integer: true, min: 1, list: true } },
  pricing: { type: "string" },
  tokenizer: { type: "string" },
  format: { type: "string" },
  limit: positiveIntegerFlag,
  split: { type: "string" },
  out: { type: "string" },
  "emit-requests": { type: "string" },
  verbose: { type: "boolean" },
} as const;

/** `ctxkit replay`: the policy comparison on recorded runs. */
export async function replayCommand(args: string[], io: CliIo): Promise<number> {
  const { flags, positionals, extra } = parseCommandLine(args, replayOptions);
  if (flags.help) {
    io.stdout.write(replayHelp);
    return 0;
  }
  if (positionals.length === 0) {
    io.stderr.write(`ctxkit replay: give at least one transcript file or directory.\n\n${replayHelp}`);
    return 2;
  }
  const option = (name: keyof typeof replayOptions) => extra[name] as string | undefined;
  // Checked by parseCommandLine; the same window given twice is replayed once.
  const windows = [...new Set((extra.window as number[] | undefined) ?? [defaultWindow])];
  const limit = extra.limit as number | undefined;
  const policies = parsePolicies(option("policy"));
  const pricingName = option("pricing") ?? defaultPricing;
  const pricing = findModelPricing(pricingName);
  if (pricing === undefined) {
    // A value --pricing does not take: a usage error (exit 2), as the help's exit codes say.
    throw new ConfigError("usage_invalid", `--pricing: no prices for '${pricingName}'. Use one of: ${Object.keys(defaultPricingCatalog.models).join(", ")}.`);
  }
  const counter = getTokenCounter(parseTokenizer(option("tokenizer")));
  const format = parseFormat(option("format"));
  const split = parseSplit(option("split"));

  const started = Date.now();
  const loaded = await loadRecordedRuns(positionals.map((path) => resolve(io.cwd, path)), { format, ...(limit ? { limit } : {}) });
  for (const problem of loaded.problems) io.stderr.write(`ctxkit replay: ${problem.file}: ${problem.reason}\n`);
  if (split !== "both") loaded.runs = loaded.runs.filter((run) => halfOf(run.id) === split);
  if (loaded.runs.length === 0) {
    io.stderr.write("ctxkit replay: no runs to replay.\n");
    return 1;
  }
  const progress = createProgressBar({ stream: io.stderr, total: loaded.runs.length * windows.length, label: "replaying", enabled: flags.json !== true });
  const emitDirectory = option("emit-requests");
  const reports: ReplayReport[] = [];
  for (const [number, contextWindow] of windows.entries()) {
    const folder = emitDirectory === undefined ? undefined : windows.length === 1 ? emitDirectory : join(emitDirectory, String(contextWindow));
    const emitter = folder === undefined ? undefined : createRequestEmitter(resolve(io.cwd, folder));
    reports.push(
      await runReplayBench(loaded.runs, {
        contextWindow,
        counter,
        pricing,
        policies,
        ...(emitter ? { onRequest: emitter.add } : {}),
        onRunDone: (_run, done) => progress.update(number * loaded.runs.length + done),
      }),
    );
    emitter?.flush();
  }
  progress.stop();
  const seconds = (Date.now() - started) / 1000;
  const report = reports[0]!;

  const out = benchOutputPath(io, option("out"), defaultOut);
  const json = windows.length === 1 ? { ...report, pricing: pricingName, problems: loaded.problems } : { windows: reports, counter: counter.name, pricing: pricingName, problems: loaded.problems };
  await makeDirectoryTree(dirname(out));
  await writeFile(out, `${JSON.stringify(json, null, 2)}\n`);
  if (flags.json) {
    io.stdout.write(`${JSON.stringify(json)}\n`);
    return 0;
  }
  const windowText = windows.map((value) => value.toLocaleString("en-US")).join(", ");
  io.stdout.write(
    `Replayed ${loaded.runs.length} run${loaded.runs.length === 1 ? "" : "s"} × ${policies.length} polic${policies.length === 1 ? "y" : "ies"}, ` +
      `window${windows.length === 1 ? "" : "s"} ${windowText} tokens, ${counter.name} token counts, ${pricingName} prices, in ${seconds.toFixed(1)} s.\n\n`,
  );
  if (windows.length > 1 || format === "all") io.stdout.write(formatMatrixTable(reports, split === "both" ? replayHalves : [split], agentComparatorNames));
  else io.stdout.write(formatPolicyTable(report.policies, split === "both" ? report.halves : { [split]: report.halves[split] }));
  if (extra.verbose === true) io.stdout.write(`\n${formatRunTable(report.runs)}`);
  io.stdout.write(
    "\nReference recall: identifiers that first appear in a tool result and that the model later writes, still visible where it writes them.\n" +
      "Line recall: the line of that tool result where the identifier first appeared (trimmed, or the 200 characters around it), still visible verbatim.\n" +
      "A pair at a call that overflowed is lost. rescued: calls whose first attempt overflowed and whose retry after the policy's overflow handling fitted.\n" +
      "summaries: summariser calls, each billed as the model call it would be (a separate prompt, or in-band on the cached conversation); cost includes them.\n" +
      `JSON: ${out}\n`,
  );
  return 0;
}

/** Collects one run's lines under one policy and writes them when the next run or policy starts. */
function createRequestEmitter(directory: string): { add: NonNullable<ReplayBenchOptions["onRequest"]>; flush(): void } {
  let key: { run: string; policy: string } | undefined;
  let lines: string[] = [];
  const flush = () => {
    if (key === undefined) return;
    const folder = join(directory, safeName(key.policy));
    makeDirectoryTreeSync(folder);
    writeFileSync(join(folder, `${safeName(key.run)}.jsonl`), lines.join(""));
    key = undefined;
    lines = [];
  };
  return {
    add(event) {
      if (key !== undefined && (key.run !== event.run || key.policy !== event.policy)) flush();
      key = { run: event.run, policy: event.policy };
      lines.push(`${JSON.stringify(toEmittedRequest(event.run, event.call, event.promptTokens, event.request))}\n`);
    },
    flush,
  };
}

function safeName(value: string): string {
  return value.replace(/[^\w.-]+/g, "_");
}

/** The library's refusal (option_invalid, exit 1) as what it is at the command line: a value --policy does not take. */
function parsePolicies(value: string | undefined): string[] {
  try {
    return resolveReplayPolicyNames(value);
  } catch (error) {
    if (error instanceof ConfigError && error.code === "option_invalid") throw new ConfigError("usage_invalid", `--policy: ${error.message}`, { cause: error });
    throw error;
  }
}

function parseSplit(value: string | undefined): ReplayHalf | "both" {
  if (value === undefined || value === "both") return "both";
  if ((replayHalves as readonly string[]).includes(value)) return value as ReplayHalf;
  throw new ConfigError("usage_invalid", `--split must be tune, measure or both, got '${value}'.`);
}

function parseTokenizer(value: string | undefined): TokenCounterName {
  const names: TokenCounterName[] = ["estimate", "qwen3", "o200k", "cl100k"];
  if (value === undefined) return "estimate";
  if (names.includes(value as TokenCounterName)) return value as TokenCounterName;
  throw new ConfigError("usage_invalid", `--tokenizer must be one of ${names.join(", ")}, got '${value}'.`);
}

function parseFormat(value: string | undefined): TranscriptFormat | "auto" | "all" {
  if (value === undefined || value === "auto" || value === "all") return value ?? "auto";
  if (TRANSCRIPT_FORMATS.includes(value as TranscriptFormat)) return value as TranscriptFormat;
  throw new ConfigError("usage_invalid", `--format must be auto, all or one of ${TRANSCRIPT_FORMATS.join(", ")}, got '${value}'.`);
}
