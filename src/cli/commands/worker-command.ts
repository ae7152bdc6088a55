import type { CliIo } from "../cli-io.js";
import { parseCommandLine, pickCommonOptions } from "../cli-options.js";
import { positiveIntegerFlag } from "../number-flags.js";
import { requireDatabaseUrl } from "../durable/require-database-url.js";
import { startTracingOrSay, stopTracingAndSay } from "../start-tracing-or-say.js";
import { runWarningLine } from "../durable/run-warning-line.js";
import { refuseExtraArguments } from "../refuse-extra-arguments.js";

export const workerHelp = `Usage: ctxkit worker --database-url <url> [--concurrency N] [--stale-after <s>]

Runs durable agent runs (submitted with 'ctxkit submit') until stopped with Ctrl-C or SIGTERM.
Start as many as you like, on this machine or others, against the same PostgreSQL: each takes runs
from one queue. A run resumes after its last completed model or tool call when its worker dies;
a worker that stops answering is noticed by the others, which take over its runs. Stopping a worker
does not wait for its runs: their calls in flight are cut as by a crash (the others take the runs
over within a third of --stale-after; a side effect cut waits for 'ctxkit runs resume <id> --approve').

Options:
  --database-url <url>  the PostgreSQL database (default: CTXKIT_DATABASE_URL)
  --concurrency <n>     runs at once in this worker (default 4)
  --stale-after <s>     a worker silent this long is taken to be dead (default 15, at most 2147483; runs resume within twice that)

The agent of each run is rebuilt from the run's record (the settings 'ctxkit submit' resolved, in the
workspace it named, which must exist on this host too); API keys come from this worker's environment.
A run's warnings (a budget passing 80 % of its limit, a shared one's included) are printed on stderr
with the run's id.
With the OTEL_* variables set (as for 'ctxkit run'), each run is traced under the traceparent its
record holds, so a run resumed here after a crash continues its trace.
`;

export const workerOptions = { ...pickCommonOptions("database-url"), concurrency: positiveIntegerFlag, "stale-after": { type: "string", number: { integer: true, min: 1, max: 2_147_483 } } } as const;

/** `ctxkit worker`: one DBOS executor taking ctxkit runs from the queue. */
export async function workerCommand(args: string[], io: CliIo): Promise<number> {
  const { flags, extra, positionals } = parseCommandLine(args, workerOptions);
  if (flags.help) {
    io.stdout.write(workerHelp);
    return 0;
  }
  refuseExtraArguments(positionals, 0, "ctxkit worker takes only options (tasks are given to 'ctxkit submit')");
  const url = requireDatabaseUrl(flags, io);
  const concurrency = (extra.concurrency as number | undefined) ?? 4;
  const staleAfter = extra["stale-after"] as number | undefined;
  const [{ startDurableWorker }, { createDurableBuilders }, { loadPg }] = await Promise.all([
    import("../../durable/start-durable-worker.js"),
    import("../durable/durable-builders.js"),
    import("../../session/postgres/load-pg.js"),
  ]);
  // The standard OTEL_* variables turn tracing on, as for `ctxkit run`: each run's spans nest under its record's traceparent.
  const otel = await startTracingOrSay(io, "worker");
  const benchPool = new (await loadPg()).Pool({ connectionString: url, max: 2, allowExitOnIdle: true });
  benchPool.on("error", () => undefined);
  const worker = await startDurableWorker({
    connectionString: url,
    concurrency,
    builders: createDurableBuilders(io.env, benchPool),
    ...(staleAfter ? { staleAfterMs: staleAfter * 1000 } : {}),
    ...(otel ? { tracing: otel.tracing } : {}),
    // A run's warnings (a shared budget passing 80 %, say) as `ctxkit run` shows them, with the run they belong to.
    onRunEvent: (runId, event) => {
      const line = runWarningLine(runId, event);
      if (line) io.stderr.write(line);
    },
    onLog: (level, message) => {
      // Of the info lines, the runs taken over and the database back after an outage's warnings.
      if (level !== "info" || /recovered|database reachable again/.test(message)) io.stderr.write(`ctxkit worker: ${message}\n`);
    },
  });
  io.stdout.write(`ctxkit worker ${worker.executorId}: taking runs (concurrency ${concurrency}); stop with Ctrl-C.\n`);
  await new Promise<void>((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });
  await worker.stop();
  await benchPool.end();
  await stopTracingAndSay(otel, io, "worker");
  return 0;
}
