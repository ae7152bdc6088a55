import { writeFile } from "node:fs/promises";
import { dirname, relative, resolve } from "node:path";
import { loadTauBenchDialogues, locateTauBenchCorpus } from "../../../bench/kv-cache/tau-bench-dialogues.js";
import { formatGuardBench, runGuardBench } from "../../../bench/prefix-guard/run-guard-bench.js";
import { parseCommandLine, pickCommonOptions } from "../../cli-options.js";
import { positiveIntegerFlag } from "../../number-flags.js";
import type { CliIo } from "../../cli-io.js";
import { benchOutputPath, benchResultsHelp } from "../../bench-output-path.js";
import { createStagedProgressBar } from "../../progress-bar.js";
import { makeDirectoryTree } from "../../../types/make-directory-tree.js";

export const guardBenchHelp = `Usage: ctxkit bench guard [--corpus <dir>] [--limit <dialogues>] [--json] [--out <file>]

How well the prefix guard reports cache breaks, measured against what is really sent. Over the
recorded τ-bench airline dialogues, each scenario (the six ways of managing the context of bench kv-cache, plus
messages whose ctxkit-only fields change, Qwen3 reasoning that the chat template stops rendering, and
a provider update that writes old messages' bytes differently) is checked by three guards: the old
one that compared ctxkit's message objects, the guard on the wire body, and the guard on the wire
body plus Qwen3's rendered prompt tokens. A pair of calls is a real break when the next OpenAI-format
body does not start with the previous body before its tail, or the next Qwen3 prompt (full render,
exact tokens) does not start with the previous prompt's tokens before its tail. Prints, per guard,
false alarms / misses.

Options:
  --corpus <dir>   folder holding tau-bench/ (default ../shared/corpus); absent: skipped, exit 0
  --limit <n>      dialogues to use (default 10; the whole file has 200 — whole renders make it slow)
  --json           print the result as JSON instead of a table
  --out <file>     where the JSON is always written (default bench-results/guard.json)

${benchResultsHelp}`;

/** The flags this benchmark takes (numbers checked by parseCommandLine); its --help lists the same. */
export const guardBenchOptions = { ...pickCommonOptions("json"), limit: positiveIntegerFlag, corpus: { type: "string" }, out: { type: "string" } } as const;

/** `ctxkit bench guard`: false alarms and misses of the prefix guard, old and new. */
export async function guardBenchCommand(args: string[], io: CliIo): Promise<number> {
  const { flags, extra } = parseCommandLine(args, guardBenchOptions);
  if (flags.help) {
    io.stdout.write(guardBenchHelp);
    return 0;
  }
  const limit = (extra.limit as number | undefined) ?? 10;
  const corpus = resolve(io.cwd, (extra.corpus as string | undefined) ?? "../shared/corpus");
  const location = locateTauBenchCorpus(corpus);
  if (!location.found) {
    io.stderr.write(`ctxkit bench guard: skipped — the τ-bench corpus is not under ${corpus} (missing ${location.missing.join(", ")}). Pass --corpus <dir>.\n`);
    return 0;
  }
  const started = performance.now();
  const loaded = await loadTauBenchDialogues(location.files, { limit });
  const progress = createStagedProgressBar({ stream: io.stderr, enabled: flags.json !== true });
  const result = runGuardBench(loaded.dialogues, (done, total) => progress.update(done, total, "guard: scenarios"));
  progress.stop();
  const elapsedMs = Math.round(performance.now() - started);
  const json = { benchmark: "guard", corpus: location.files.trajectories, elapsedMs, ...result };
  const out = benchOutputPath(io, extra.out as string | undefined, "bench-results/guard.json");
  await makeDirectoryTree(dirname(out));
  await writeFile(out, `${JSON.stringify(json, null, 2)}\n`);
  if (flags.json) io.stdout.write(`${JSON.stringify(json, null, 2)}\n`);
  else io.stdout.write(`${formatGuardBench(result)}\n${result.dialogues} dialogues. Took ${(elapsedMs / 1000).toFixed(1)} s. Wrote ${relative(io.cwd, out) || out}.\n`);
  return 0;
}
