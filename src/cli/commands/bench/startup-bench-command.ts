import { writeFile } from "node:fs/promises";
import { dirname, relative } from "node:path";
import { formatStartupReport, runStartupBench, startupGoal } from "../../../bench/startup/run-startup-bench.js";
import { benchOutputPath, benchResultsHelp } from "../../bench-output-path.js";
import { parseCommandLine, pickCommonOptions } from "../../cli-options.js";
import { positiveIntegerFlag } from "../../number-flags.js";
import type { CliIo } from "../../cli-io.js";
import { makeDirectoryTree } from "../../../types/make-directory-tree.js";

export const startupBenchHelp = `Usage: ctxkit bench startup [--runs <n>] [--json] [--out <file>]

How long the ctxkit command takes to start, side by side with a bare \`node -e ''\`: \`ctxkit --help\`,
\`ctxkit run --help\` (printed from dist/cli-bundle/help.json; \`run --model m --help\`, which it
does not hold, shows the same through the bundle), and the start of a run: spawn until its first
model request reaches a local OpenAI-compatible server, and until its session file appears (the
process is then ended); the same run with CTXKIT_NO_CODE_CACHE=1 shows what the CLI's code cache
saves. A reference row times a bare node sending one \`fetch\` to the same server: Node loads its
fetch on the first call, a floor under any run's start. One whole run comes first, unmeasured (it
writes the code cache, as any earlier run would have). Probes are interleaved run by run; the table
shows the median, the fastest run and the ratio to bare node (goal: within ${startupGoal}×). Uses
the built dist/.

Options:
  --runs <n>   runs per probe (default 7)
  --json       print the result as JSON instead of the table
  --out <file> where the JSON is written (startup.json; see below)

${benchResultsHelp}`;

/** The flags this benchmark takes (numbers checked by parseCommandLine); its --help lists the same. */
export const startupBenchOptions = { ...pickCommonOptions("json"), runs: positiveIntegerFlag, out: { type: "string" } } as const;

/** `ctxkit bench startup`: CLI start-up against bare node. */
export async function startupBenchCommand(args: string[], io: CliIo): Promise<number> {
  const { flags, extra } = parseCommandLine(args, startupBenchOptions);
  if (flags.help) {
    io.stdout.write(startupBenchHelp);
    return 0;
  }
  const runs = (extra.runs as number | undefined) ?? 7;
  const result = await runStartupBench(runs);
  io.stdout.write(flags.json ? `${JSON.stringify(result, null, 2)}\n` : formatStartupReport(result));
  const out = benchOutputPath(io, extra.out as string | undefined, "bench-results/startup.json");
  await makeDirectoryTree(dirname(out));
  await writeFile(out, `${JSON.stringify(result, null, 2)}\n`);
  if (!flags.json) io.stdout.write(`JSON written to ${relative(io.cwd, out) || out}\n`);
  return 0;
}
