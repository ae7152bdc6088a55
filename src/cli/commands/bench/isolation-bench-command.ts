import { writeFile } from "node:fs/promises";
import { dirname, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { formatIsolationBench, runIsolationBench } from "../../../bench/isolation/index.js";
import { benchOutputPath, benchResultsHelp } from "../../bench-output-path.js";
import { createStagedProgressBar } from "../../progress-bar.js";
import { parseCommandLine, pickCommonOptions } from "../../cli-options.js";
import { positiveIntegerFlag } from "../../number-flags.js";
import type { CliIo } from "../../cli-io.js";
import { makeDirectoryTree } from "../../../types/make-directory-tree.js";

export const isolationBenchHelp = `Usage: ctxkit bench isolation [--source <dir>] [--pricing <model>] [--limit <n>] [--json] [--out <file>]

Isolation beats compression: the same "find where X is handled" task over a real code base, done
  (a) by the main agent itself with grep and read_file,
  (b) by handing it to the read-only explore sub-agent (task tool),
  (c) by handing it to a fork of the main agent (same prompt prefix, served from the cache).
Scripted and offline: the model's moves are fixed, the tools really run on a temporary copy of
the code, and the calls go through a local OpenAI-compatible server whose prompt cache keeps
every earlier request's prefix. Reported per arm: the main agent's context after the task
(prompt tokens of its last call), total tokens, cached share, the cached share of the child's
first call, and cost.

Options:
  --source <dir>     the code folder to search (default: ctxkit's own src/)
  --pricing <model>  the catalog's price list for the cost column (default gpt-4.1)
  --limit <n>        only the first n tasks
  --json             print the result as JSON instead of tables
  --out <file>       where the JSON is always written (default bench-results/isolation.json)

${benchResultsHelp}`;

/** The flags this benchmark takes (numbers checked by parseCommandLine); its --help lists the same. */
export const isolationBenchOptions = { ...pickCommonOptions("json"),
  source: { type: "string" },
  pricing: { type: "string" },
  limit: positiveIntegerFlag,
  out: { type: "string" },
} as const;

/** `ctxkit bench isolation`: main context vs sub-agent vs fork on the same search task. */
export async function isolationBenchCommand(args: string[], io: CliIo): Promise<number> {
  const { flags, extra } = parseCommandLine(args, isolationBenchOptions);
  if (flags.help) {
    io.stdout.write(isolationBenchHelp);
    return 0;
  }
  // dist/cli/commands/bench/ → the package's src/ (present in a checkout of ctxkit).
  const ownSource = fileURLToPath(new URL("../../../../src", import.meta.url));
  const source = typeof extra.source === "string" ? resolve(io.cwd, extra.source) : ownSource;
  const limit = extra.limit as number | undefined;
  const progress = createStagedProgressBar({ stream: io.stderr, enabled: flags.json !== true });
  const result = await runIsolationBench({
    source,
    onProgress: (done, total) => progress.update(done, total, "isolation: sections"),
    ...(typeof extra.pricing === "string" ? { pricingModel: extra.pricing } : {}),
    ...(limit === undefined ? {} : { limit }),
  });
  progress.stop();
  io.stdout.write(flags.json ? `${JSON.stringify(result, null, 2)}\n` : formatIsolationBench(result));
  const out = benchOutputPath(io, extra.out as string | undefined, "bench-results/isolation.json");
  await makeDirectoryTree(dirname(out));
  await writeFile(out, `${JSON.stringify(result, null, 2)}\n`);
  if (!flags.json) io.stdout.write(`JSON written to ${relative(io.cwd, out) || out}\n`);
  return 0;
}
