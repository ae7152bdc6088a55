import { existsSync, readdirSync, statSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { buildLargeTrajectory, formatViewPerformance, measureViewPerformance, medianTiming, type ViewTiming } from "../../../bench/view-performance/index.js";
import { importTranscriptFiles } from "../../../inspect/index.js";
import { getTokenCounter } from "../../../tokens/index.js";
import { parseCommandLine, parsePositiveInteger } from "../../cli-options.js";
import type { CliIo } from "../../cli-io.js";

export const viewBenchHelp = `Usage: ctxkit bench view [--corpus <dir>] [--calls <n>] [--context-tokens <n>] [--repeat <n>] [--tokenizers <list>] [--chromium <path>] [--out <file>]

How fast 'ctxkit view' opens a big run. Builds a mini-swe-agent trajectory of --calls
calls (500) from the corpus's swe-gemini turns, each prompt at least --context-tokens (100,000)
Qwen3 tokens, writes it to a temporary file, then --repeat times (3) runs the built 'ctxkit view'
on it and times: until the URL is printed (read, import, analysis, listening); in a chromium
(when found) already running, opened as the URL is printed, until every column is drawn, until the
selected call's prompt is shown, and a click on another call; then the timeline and one call's
JSON; with qwen3, until the exact counts (computed in the background) are in. Target: open
(the command's start until every column is drawn) under 2 s.

Options:
  --corpus <dir>     folder holding swe-gemini/ (default ../shared/corpus); absent: skipped, exit 0
  --tokenizers <l>   the viewer's --tokenizer values to time (default qwen3,estimate)
  --chromium <path>  the browser (default /usr/bin/chromium); absent: the page timings are left out
  --out <file>       where the JSON is written (default bench-results/view-performance.json)
`;

const options = {
  corpus: { type: "string" },
  calls: { type: "string" },
  "context-tokens": { type: "string" },
  repeat: { type: "string" },
  chromium: { type: "string" },
  tokenizers: { type: "string" },
  out: { type: "string" },
} as const;

/** `ctxkit bench view`: opens a 500-call, 100k-token-per-call run in the viewer and times it. */
export async function viewBenchCommand(args: string[], io: CliIo): Promise<number> {
  const { flags, extra } = parseCommandLine(args, options);
  if (flags.help) {
    io.stdout.write(viewBenchHelp);
    return 0;
  }
  const calls = parsePositiveInteger(extra.calls as string | undefined, "--calls") ?? 500;
  const contextTokens = parsePositiveInteger(extra["context-tokens"] as string | undefined, "--context-tokens") ?? 100_000;
  const repeat = parsePositiveInteger(extra.repeat as string | undefined, "--repeat") ?? 3;
  const tokenizers = ((extra.tokenizers as string | undefined) ?? "qwen3,estimate").split(",");
  const chromium = resolve(io.cwd, (extra.chromium as string | undefined) ?? "/usr/bin/chromium");
  const directory = join(resolve(io.cwd, (extra.corpus as string | undefined) ?? "../shared/corpus"), "swe-gemini");
  if (!existsSync(directory)) {
    io.stdout.write(`Skipped: no swe-gemini corpus at ${directory} (pass --corpus <dir>).\n`);
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
  const file = join(resolve(io.cwd, "bench-results"), "view", `large-run-${large.calls}.traj.json`);
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, large.json);

  io.stdout.write(`ctxkit view on a ${large.calls}-call run, every prompt ≥ ${large.contextTokens.toLocaleString("en-US")} Qwen3 tokens (${(large.json.length / 1e6).toFixed(1)} MB file); node ${process.version}\n`);
  const results: Record<string, { timings: ViewTiming[]; median: ViewTiming }> = {};
  for (const tokenizer of tokenizers) {
    const timings: ViewTiming[] = [];
    const chromiumPath = existsSync(chromium) ? { chromiumPath: chromium } : {};
    for (let index = 0; index < repeat; index++) timings.push(await measureViewPerformance(file, large.calls, { tokenizer, ...chromiumPath }));
    const median = medianTiming(timings);
    results[tokenizer] = { timings, median };
    io.stdout.write(`\n--tokenizer ${tokenizer}\n${formatViewPerformance(timings, tokenizer)}\n`);
    io.stdout.write(
      median.openMs === undefined
        ? "No chromium: page timings left out (pass --chromium <path>).\n"
        : `Open (command start → URL printed → page opened → every column drawn): ${(median.openMs / 1000).toFixed(2)} s median; target under 2 s: ${median.openMs < 2000 ? "met" : "NOT met"}.\n`,
    );
  }
  const out = resolve(io.cwd, (extra.out as string | undefined) ?? "bench-results/view-performance.json");
  await mkdir(dirname(out), { recursive: true });
  await writeFile(out, `${JSON.stringify({ calls: large.calls, contextTokens: large.contextTokens, fileBytes: large.json.length, node: process.version, results }, null, 2)}\n`);
  io.stdout.write(`Wrote ${out}\n`);
  return 0;
}
