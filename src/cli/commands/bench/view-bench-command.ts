import { existsSync, readdirSync, statSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { dirname, join, relative, resolve } from "node:path";
import { buildLargeTrajectory, formatViewPerformance, measureViewPerformance, medianTiming, type ViewTiming } from "../../../bench/view-performance/index.js";
import { importTranscriptFiles } from "../../../inspect/index.js";
import { getTokenCounter } from "../../../tokens/index.js";
import { parseCommandLine, pickCommonOptions } from "../../cli-options.js";
import { positiveIntegerFlag } from "../../number-flags.js";
import type { CliIo } from "../../cli-io.js";
import { benchOutputPath, benchResultsHelp } from "../../bench-output-path.js";
import { createStagedProgressBar } from "../../progress-bar.js";
import { makeDirectoryTree } from "../../../types/make-directory-tree.js";

export const viewBenchHelp = `Usage: ctxkit bench view [--corpus <dir>] [--calls <n>] [--context-tokens <n>] [--repeat <n>] [--tokenizers <list>] [--chromium <path>] [--json] [--out <file>]

How fast 'ctxkit view' opens a big run. Builds a mini-swe-agent trajectory of --calls
calls (500) from the corpus's swe-gemini turns, each prompt at least --context-tokens (100,000)
Qwen3 tokens, writes it next to the JSON (under view/), then --repeat times (3) runs the built
'ctxkit view' on it and times: until the URL is printed (read, import, analysis, listening); in a
chromium (when found) already running, opened as the URL is printed, until every column is drawn,
until the selected call's prompt is shown, and a click on another call; then the timeline and one
call's JSON; with qwen3, until the exact counts (computed in the background) are in. Target: open
(the command's start until every column is drawn) under 2 s.

Options:
  --corpus <dir>     folder holding swe-gemini/ (default ../shared/corpus); absent: skipped, exit 0
  --tokenizers <l>   the viewer's --tokenizer values to time (default qwen3,estimate)
  --chromium <path>  the browser (default /usr/bin/chromium); absent: the page timings are left out
  --calls <n>        calls in the built run (default 500)
  --context-tokens <n>  Qwen3 tokens each call's prompt reaches at least (default 100000)
  --repeat <n>       timed openings per tokenizer (default 3)
  --json             print the result as JSON instead of tables
  --out <file>       where the JSON is always written (default bench-results/view-performance.json;
                     the built run is written beside it, under view/)

${benchResultsHelp}`;

/** The flags this benchmark takes (numbers checked by parseCommandLine); its --help lists the same. */
export const viewBenchOptions = { ...pickCommonOptions("json"),
  corpus: { type: "string" },
  calls: positiveIntegerFlag,
  "context-tokens": positiveIntegerFlag,
  repeat: positiveIntegerFlag,
  chromium: { type: "string" },
  tokenizers: { type: "string" },
  out: { type: "string" },
} as const;

/** `ctxkit bench view`: opens a 500-call, 100k-token-per-call run in the viewer and times it. */
export async function viewBenchCommand(args: string[], io: CliIo): Promise<number> {
  const { flags, extra } = parseCommandLine(args, viewBenchOptions);
  if (flags.help) {
    io.stdout.write(viewBenchHelp);
    return 0;
  }
  const calls = (extra.calls as number | undefined) ?? 500;
  const contextTokens = (extra["context-tokens"] as number | undefined) ?? 100_000;
  const repeat = (extra.repeat as number | undefined) ?? 3;
  const tokenizers = ((extra.tokenizers as string | undefined) ?? "qwen3,estimate").split(",");
  const chromium = resolve(io.cwd, (extra.chromium as string | undefined) ?? "/usr/bin/chromium");
  const directory = join(resolve(io.cwd, (extra.corpus as string | undefined) ?? "../shared/corpus"), "swe-gemini");
  if (!existsSync(directory)) {
    io.stderr.write(`ctxkit bench view: skipped — no swe-gemini corpus at ${directory}. Pass --corpus <dir>.\n`);
    return 0;
  }
  // The three largest runs, as the inspect benchmark uses: the most varied turns.
  const files = readdirSync(directory)
    .filter((name) => name.endsWith(".traj.json"))
    .map((name) => join(directory, name))
    .sort((left, right) => statSync(right).size - statSync(left).size)
    .slice(0, 3);
  const { transcripts } = await importTranscriptFiles(files);
  const large = buildLargeTrajectory(transcripts, { calls, contextTokens, counter: getTokenCounter("qwen3") });
  const out = benchOutputPath(io, extra.out as string | undefined, "bench-results/view-performance.json");
  const file = join(dirname(out), "view", `large-run-${large.calls}.traj.json`);
  await makeDirectoryTree(dirname(file));
  await writeFile(file, large.json);

  const print = (text: string) => {
    if (flags.json !== true) io.stdout.write(text);
  };
  print(`ctxkit view on a ${large.calls}-call run, every prompt ≥ ${large.contextTokens.toLocaleString("en-US")} Qwen3 tokens (${(large.json.length / 1e6).toFixed(1)} MB file); node ${process.version}\n`);
  const results = new Map<string, { timings: ViewTiming[]; median: ViewTiming }>();
  const progress = createStagedProgressBar({ stream: io.stderr, enabled: flags.json !== true });
  for (const tokenizer of tokenizers) {
    const timings: ViewTiming[] = [];
    const chromiumPath = existsSync(chromium) ? { chromiumPath: chromium } : {};
    for (let index = 0; index < repeat; index++) {
      progress.update(results.size * repeat + index, tokenizers.length * repeat, "view: openings");
      timings.push(await measureViewPerformance(file, large.calls, { tokenizer, ...chromiumPath }));
    }
    const median = medianTiming(timings);
    results.set(tokenizer, { timings, median });
    progress.update(results.size * repeat, tokenizers.length * repeat, "view: openings");
    print(`\n--tokenizer ${tokenizer}\n${formatViewPerformance(timings, tokenizer)}\n`);
    print(
      median.openMs === undefined
        ? "No chromium: page timings left out (pass --chromium <path>).\n"
        : `Open (command start → URL printed → page opened → every column drawn): ${(median.openMs / 1000).toFixed(2)} s median; target under 2 s: ${median.openMs < 2000 ? "met" : "NOT met"}.\n`,
    );
  }
  progress.stop();
  const json = `${JSON.stringify({ calls: large.calls, contextTokens: large.contextTokens, fileBytes: large.json.length, node: process.version, results: Object.fromEntries(results) }, null, 2)}\n`;
  await writeFile(out, json);
  if (flags.json === true) io.stdout.write(json);
  else io.stdout.write(`Wrote ${relative(io.cwd, out) || out}\n`);
  return 0;
}
