import { writeFile } from "node:fs/promises";
import { dirname, relative } from "node:path";
import { batteryNames, failureClasses, formatHardeningReport, fullCounts, runHardeningBench, type BatteryName, type HardeningBenchResult } from "../../../bench/hardening/index.js";
import { ConfigError } from "../../../types/index.js";
import { benchOutputPath, benchResultsHelp } from "../../bench-output-path.js";
import { parseCommandLine, pickCommonOptions } from "../../cli-options.js";
import { positiveIntegerFlag } from "../../number-flags.js";
import type { CliIo } from "../../cli-io.js";
import { createProgressBar } from "../../progress-bar.js";
import { makeDirectoryTree } from "../../../types/make-directory-tree.js";

export const hardeningBenchHelp = `Usage: ctxkit bench hardening [--scale <factor>] [--trials <n>] [--only <list>] [--seed <n>] [--json] [--out <file>]

Fault, fuzz and abuse trials against ctxkit itself, with real mechanisms: the ctxkit command is
killed with SIGKILL mid-run and resumed against a local model server; session files, SSE streams
(through local HTTP into the OpenAI-compatible and Anthropic providers) and recorded transcripts of
other agents are mutated from a seeded generator; every tool is tried with paths that lead outside
the workspace while another process swaps a folder for a link to outside; workspace configs and
confirmations are checked through the command; and the resource limits are pushed (a backtracking
grep pattern, a FIFO, a 1 GB line, a 1 GB file, a 50 MB tool result, a 200k-character word, and
bash processes that try to outlive their call: \`(sleep 25 &)\`, \`setsid sh -c "sleep 26"\`). Session files
are also cross-checked (a final answer removed, a usage figure edited, a trailing blank line);
big-events times one SSE event of 2.5, 5, 10 and 20 MB in each provider (the CPU of the provider alone:
the server runs in a child process; GC before each attempt,
sizes interleaved, the median of 9; the growth exponent fitted over the sizes, start-up removed, must
stay at most log2(2.5) = 1.32, i.e. 2.5× per doubling; the 10/5 MB ratio is reported; a miss is
measured again at twice the attempts and then counts as "superlinear"; --trials runs small events and
only reports their timing); listing-race runs list_dir, glob and grep while a folder flips to a link to outside.

Counted per battery: trials, freezes (a trial over its time bound, or the event loop blocked over
2 s), crashes (an error that is not one of ctxkit's typed errors), escapes (outside content read,
a write landing outside, a workspace config moving storage, a raw control character shown),
silent merges (an answer or a session changed without an error or a warning) and lost records
(a sent request missing from the session after a kill, or a session that no longer resumes).

Batteries: ${batteryNames.join(", ")}.
Full counts (--scale 1): ${fullCounts["kill-resume"]} kills, ${fullCounts["session-files"]} session files, ${fullCounts.streams} streams, ${fullCounts.importers} importer runs,
${fullCounts["workspace-escapes"]} escape attempts plus a ${formatCount(fullCounts.race)}-call race, ${fullCounts.config} config and confirmation checks.

Options:
  --scale <factor>  multiply the full counts (1 = all of them; default: a run of a few minutes)
  --trials <n>      at most n trials in every counted battery (a quick check)
  --only <list>     comma-separated batteries to run (default: all)
  --seed <n>        the fuzzers' seed (default 1); the same seed repeats the same cases
  --json            print the result as JSON instead of the table
  --out <file>      where the JSON is written (hardening.json; see below)

A run exits 1 when any battery counts a failure or one of the original cases does not hold
(the table and the JSON are still written).

${benchResultsHelp}`;

function formatCount(value: number): string {
  return value.toLocaleString("en-US");
}

/** The flags this benchmark takes (numbers checked by parseCommandLine); its --help lists the same. */
export const hardeningBenchOptions = { ...pickCommonOptions("json"),
  scale: { type: "string", number: { above: 0, max: 10 } },
  trials: positiveIntegerFlag,
  only: { type: "string" },
  seed: positiveIntegerFlag,
  out: { type: "string" },
} as const;

/** `ctxkit bench hardening`: the fault, fuzz and abuse batteries, with their failure counts. */
export async function hardeningBenchCommand(args: string[], io: CliIo): Promise<number> {
  const { flags, extra } = parseCommandLine(args, hardeningBenchOptions);
  if (flags.help) {
    io.stdout.write(hardeningBenchHelp);
    return 0;
  }
  const scale = extra.scale as number | undefined;
  const trials = extra.trials as number | undefined;
  const seed = (extra.seed as number | undefined) ?? 1;
  const only = parseOnly(extra.only as string | undefined);
  if (flags.json !== true) io.stderr.write(`hardening: seed ${seed} (repeat a run with --seed ${seed})\n`);
  const progress = createProgressBar({ stream: io.stderr, total: only?.length ?? batteryNames.length, label: "hardening: batteries", enabled: flags.json !== true });
  const result = await runHardeningBench({
    seed,
    ...(scale === undefined ? {} : { scale }),
    ...(trials === undefined ? {} : { trials }),
    ...(only === undefined ? {} : { only }),
    onBattery: (_name, done) => progress.update(done),
  });
  progress.stop();
  io.stdout.write(flags.json ? `${JSON.stringify(result, null, 2)}\n` : formatHardeningReport(result));
  const out = benchOutputPath(io, extra.out as string | undefined, "bench-results/hardening.json");
  await makeDirectoryTree(dirname(out));
  await writeFile(out, `${JSON.stringify(result, null, 2)}\n`);
  if (!flags.json) io.stdout.write(`JSON written to ${relative(io.cwd, out) || out}\n`);
  const failed = failedChecks(result);
  if (failed.length === 0) return 0;
  io.stderr.write(`hardening: failed: ${failed.join("; ")}\n`);
  return 1;
}

/** What went wrong in a run, one phrase each: every failure class above 0, every original case that did not hold. */
function failedChecks(result: HardeningBenchResult): string[] {
  const counted = failureClasses.filter((failure) => result.totals[failure] > 0).map((failure) => `${result.totals[failure]} ${failure}`);
  const cases = result.batteries.flatMap((battery) => battery.cases.filter((entry) => !entry.passed).map((entry) => `${battery.battery}: "${entry.name}" did not hold`));
  return [...counted, ...cases];
}

function parseOnly(value: string | undefined): BatteryName[] | undefined {
  if (value === undefined) return undefined;
  const names = value.split(",").map((name) => name.trim()).filter((name) => name !== "");
  const unknown = names.filter((name) => !(batteryNames as readonly string[]).includes(name));
  if (unknown.length > 0 || names.length === 0) throw new ConfigError("usage_invalid", `--only takes batteries among ${batteryNames.join(", ")}; got '${value}'.`);
  return names as BatteryName[];
}
