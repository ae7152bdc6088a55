import { writeFile } from "node:fs/promises";
import { dirname, relative } from "node:path";
import { benchOutputPath, benchResultsHelp } from "../../bench-output-path.js";
import { parseCommandLine, pickCommonOptions } from "../../cli-options.js";
import { positiveIntegerFlag } from "../../number-flags.js";
import type { CliIo } from "../../cli-io.js";
import { resolveConfig } from "../../resolve-config.js";
import { makeDirectoryTree } from "../../../types/make-directory-tree.js";

export const durableBenchHelp = `Usage: ctxkit bench durable [--workers 4] [--runs 200] [--kill-every 3s] [--concurrency 4] [--model-latency 1500ms] [--database-url <url>] [--json] [--out <file>]

Durable runs on worker processes: scripted agents (fixed model latency, a counted side effect per
tool call) submitted to the queue while a random worker is killed with SIGKILL on a schedule and
replaced. Counted: runs completed and lost, runs resumed after a kill, model calls repeated,
side effects repeated (must be 0), time for a dead worker's runs to be taken over (p95), run time
(p50, p95) and throughput; the throughput at 1, 2 and 4 workers without kills (\`scaling\`, speedup
relative to 1 worker); then runs that need about twice a shared budget's limit (one scope), without
kills, with them (not with --kill-every 0), and with a model that uses 1.5× what each call reserves:
runs refused, what the budget's ledger counted, what the scripted model billed (every call attempt,
as it starts) and the overrun past the limit against its bound (workers × concurrency calls in
flight — the bench's agent has no sub-agents or compaction calls — × the most one call may use).
Outside the overuse phase the scripted model never uses more than its call reserved, so the overrun
there is 0 by construction: it shows the bookkeeping holding, not the bound approached. Each phase
uses a new database on the server of --database-url / CTXKIT_DATABASE_URL; without one, a
throw-away PostgreSQL is started.

Options:
  --workers <n>       worker processes in the phase with kills (default 4)
  --runs <n>          runs in the phase with kills (default 200)
  --kill-every <t>    SIGKILL a worker this often, e.g. 3s or 500ms (default 3s; 0 = never)
  --concurrency <n>   runs at once per worker (default 4)
  --model-latency <t> how long each scripted model call takes (default 1500ms: hosted models take
                      seconds per call; with a few hundred ms the database round trips of each step
                      weigh more, and on a loaded machine the workers' CPU, not the model, limits)
  --database-url <url>
                      the PostgreSQL server each phase makes its new database on (default
                      CTXKIT_DATABASE_URL; without either, a throw-away PostgreSQL is started)
  --json              print the result as JSON (the last line)
  --out <file>        where the JSON is written (durable.json; see below)

${benchResultsHelp}`;

/** The flags `ctxkit bench durable` takes (numbers checked by parseCommandLine); its --help lists the same. */
export const durableBenchOptions = { ...pickCommonOptions("json", "database-url"), workers: positiveIntegerFlag, runs: positiveIntegerFlag, "kill-every": { type: "string", number: { duration: true } }, concurrency: positiveIntegerFlag, "model-latency": { type: "string", number: { duration: true } }, out: { type: "string" } } as const;

/** `ctxkit bench durable`. */
export async function durableBenchCommand(args: string[], io: CliIo): Promise<number> {
  const { flags, extra } = parseCommandLine(args, durableBenchOptions);
  if (flags.help) {
    io.stdout.write(durableBenchHelp);
    return 0;
  }
  const workers = (extra.workers as number | undefined) ?? 4;
  const runs = (extra.runs as number | undefined) ?? 200;
  const concurrency = (extra.concurrency as number | undefined) ?? 4;
  const killEveryMs = (extra["kill-every"] as number | undefined) ?? 3_000;
  const modelLatencyMs = (extra["model-latency"] as number | undefined) ?? 1_500;
  const [{ runDurableBench }, { formatDurableBench }] = await Promise.all([import("../../../bench/durable/run-durable-bench.js"), import("../../../bench/durable/format-durable-bench.js")]);
  let url = resolveConfig(flags, io.env, { cwd: io.cwd }).databaseUrl;
  let stop: (() => void) | undefined;
  if (url === undefined) {
    const { startThrowawayPostgres } = await import("../../../testing/throwaway-postgres.js");
    const started = await startThrowawayPostgres({ stopWhenProcessExits: process.pid });
    url = started.url;
    stop = started.stop;
    if (!flags.json) io.stderr.write(`durable: no --database-url; started a throw-away PostgreSQL (${started.folder})\n`);
  }
  try {
    const result = await runDurableBench({
      connectionString: url,
      workers,
      runs,
      killEveryMs,
      concurrency,
      modelLatencyMs,
      onPhase: (label) => {
        if (!flags.json) io.stderr.write(`durable: ${label}\n`);
      },
    });
    io.stdout.write(flags.json ? `${JSON.stringify(result)}\n` : formatDurableBench(result));
    const out = benchOutputPath(io, extra.out as string | undefined, "bench-results/durable.json");
    await makeDirectoryTree(dirname(out));
    await writeFile(out, `${JSON.stringify(result, null, 2)}\n`);
    if (!flags.json) io.stdout.write(`JSON written to ${relative(io.cwd, out) || out}\n`);
    return result.lost === 0 && result.duplicateSideEffects === 0 ? 0 : 1;
  } finally {
    stop?.();
  }
}

