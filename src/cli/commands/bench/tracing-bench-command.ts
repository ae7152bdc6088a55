import { writeFile } from "node:fs/promises";
import { dirname, relative } from "node:path";
import { formatTracingOverhead, measureTracingOverhead } from "../../../bench/tracing/measure-tracing-overhead.js";
import { parseCommandLine, pickCommonOptions } from "../../cli-options.js";
import { positiveIntegerFlag } from "../../number-flags.js";
import type { CliIo } from "../../cli-io.js";
import { benchOutputPath, benchResultsHelp } from "../../bench-output-path.js";
import { makeDirectoryTree } from "../../../types/make-directory-tree.js";

export const tracingBenchHelp = `Usage: ctxkit bench tracing [--calls <n>] [--rounds <n>] [--json] [--out <file>]

What OpenTelemetry tracing costs the agent loop. One offline run of <calls> model calls (scripted
provider, one small tool call per turn, no session) is timed from its first event to its last,
consumed three ways: untraced; through ctxkit's tracing with no SDK registered ("tracing off",
the @opentelemetry/api no-op every library user gets); and into the OpenTelemetry SDK with a batch
processor and an in-memory exporter ("tracing on"). Each round runs every arm once, in rotating
order, all in this one process. The headline is the ratio tracing off ÷ untraced: the fastest run
of each (load on a shared machine only adds time), with the median of the per-round ratios beside
it and the untraced runs' own spread (the noise the ratio must beat); the same ratio over the CPU
time the process spent in each loop, which other processes on a loaded machine disturb far less. The SDK arm's queue holds a
whole run and is flushed after each (untimed), so it drops no span; the JSON counts spans ended,
exported and dropped, and a drop is reported.

Options:
  --calls <n>     model calls per run (default 500)
  --rounds <n>    rounds (default 7)
  --json          print the result as JSON instead of a table
  --out <file>    where the JSON is always written (default bench-results/tracing.json)

${benchResultsHelp}`;

/** The flags this benchmark takes (numbers checked by parseCommandLine); its --help lists the same. */
export const tracingBenchOptions = { ...pickCommonOptions("json"), calls: positiveIntegerFlag, rounds: positiveIntegerFlag, out: { type: "string" } } as const;

/** `ctxkit bench tracing`: the loop time of a 500-call run, untraced vs tracing off vs tracing on. */
export async function tracingBenchCommand(args: string[], io: CliIo): Promise<number> {
  const { flags, extra } = parseCommandLine(args, tracingBenchOptions);
  if (flags.help) {
    io.stdout.write(tracingBenchHelp);
    return 0;
  }
  const calls = (extra.calls as number | undefined) ?? 500;
  const rounds = (extra.rounds as number | undefined) ?? 7;
  const { TracerProvider, BatchSpanProcessor, InMemorySpanExporter } = await import("@opentelemetry/sdk-trace");
  const exporter = new InMemorySpanExporter();
  // A run makes 2 spans per call (chat, tool) plus its own: the queue holds a whole run.
  const batch = new BatchSpanProcessor({ exporter, maxQueueSize: Math.max(2048, 2 * calls + 64), maxExportBatchSize: 512, scheduledDelayMillis: 200 });
  let endedSpans = 0;
  // Not registered globally: the "tracing off" arm must still see the API's no-op.
  const provider = new TracerProvider({
    spanProcessors: [{
      onStart: (span, parent) => batch.onStart(span, parent),
      onEnd: (span) => {
        endedSpans += 1;
        batch.onEnd(span);
      },
      forceFlush: () => batch.forceFlush(),
      shutdown: () => batch.shutdown(),
    }],
  });
  const started = performance.now();
  const result = await measureTracingOverhead({
    calls,
    rounds,
    sdkTracer: provider.getTracer("ctxkit-bench"),
    afterRun: async (arm) => {
      if (arm === "tracing on") await provider.forceFlush();
    },
    onRound: (done, total) => {
      if (!flags.json) io.stderr.write(`bench tracing: round ${done}/${total}\n`);
    },
  });
  await provider.forceFlush();
  const exportedSpans = exporter.getFinishedSpans().length;
  await provider.shutdown();
  const spans = { ended: endedSpans, exported: exportedSpans, dropped: Math.max(0, endedSpans - exportedSpans) };
  const elapsedMs = Math.round(performance.now() - started);
  const json = { benchmark: "tracing", node: process.version, elapsedMs, spans, ...result };
  const out = benchOutputPath(io, extra.out as string | undefined, "bench-results/tracing.json");
  await makeDirectoryTree(dirname(out));
  await writeFile(out, `${JSON.stringify(json, null, 2)}\n`);
  if (flags.json) io.stdout.write(`${JSON.stringify(json, null, 2)}\n`);
  else {
    const { fastest, pairedMedian } = result.offRatio;
    io.stdout.write(
      `${formatTracingOverhead(result)}\n` +
        `Tracing off ÷ untraced loop time of the ${calls}-call run: ${fastest.toFixed(4)} (fastest of ${rounds}), ${pairedMedian.toFixed(4)} (median of paired rounds); ` +
        `over CPU time ${result.offCpuRatio.fastest.toFixed(4)} (fastest), ${result.offCpuRatio.pairedMedian.toFixed(4)} (paired median); ` +
        `${Math.min(fastest, result.offCpuRatio.fastest) - 1 < 0.02 ? "under" : "NOT under"} 2% overhead. Untraced runs varied by ${(result.untracedSpread * 100).toFixed(1)}% among themselves.\n` +
        `The SDK arm: ${spans.ended} spans ended, ${spans.exported} exported${spans.dropped > 0 ? `, ${spans.dropped} DROPPED (the queue overflowed)` : ", none dropped"}. ` +
        `Took ${(elapsedMs / 1000).toFixed(1)} s. Wrote ${relative(io.cwd, out) || out}.\n`,
    );
  }
  return 0;
}
