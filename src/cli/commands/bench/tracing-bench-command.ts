import { mkdir, writeFile } from "node:fs/promises";
import { dirname, relative } from "node:path";
import { formatTracingOverhead, measureTracingOverhead } from "../../../bench/tracing/measure-tracing-overhead.js";
import { parseCommandLine, parsePositiveInteger } from "../../cli-options.js";
import type { CliIo } from "../../cli-io.js";
import { benchOutputPath, benchResultsHelp } from "../../bench-output-path.js";

export const tracingBenchHelp = `Usage: ctxkit bench tracing [--calls <n>] [--rounds <n>] [--json] [--out <file>]

What OpenTelemetry tracing costs the agent loop. One offline run of <calls> model calls (scripted
provider, one small tool call per turn, no session) is timed from its first event to its last,
consumed three ways: untraced; through ctxkit's tracing with no SDK registered ("tracing off",
the @opentelemetry/api no-op every library user gets); and into the OpenTelemetry SDK with a batch
processor and an in-memory exporter ("tracing on"). Each round runs every arm once, in rotating
order; the overhead is the fastest run of an arm ÷ the fastest untraced run − 1 (load on a shared
machine only adds time), with the median of per-round ratios beside it.

Options:
  --calls <n>     model calls per run (default 500)
  --rounds <n>    rounds (default 7)
  --json          print the result as JSON instead of a table
  --out <file>    where the JSON is always written (default bench-results/tracing.json)

${benchResultsHelp}`;

const options = { calls: { type: "string" }, rounds: { type: "string" }, out: { type: "string" } } as const;

/** `ctxkit bench tracing`: the loop time of a 500-call run, untraced vs tracing off vs tracing on. */
export async function tracingBenchCommand(args: string[], io: CliIo): Promise<number> {
  const { flags, extra } = parseCommandLine(args, options);
  if (flags.help) {
    io.stdout.write(tracingBenchHelp);
    return 0;
  }
  const calls = parsePositiveInteger(extra.calls as string | undefined, "--calls") ?? 500;
  const rounds = parsePositiveInteger(extra.rounds as string | undefined, "--rounds") ?? 7;
  const { TracerProvider, BatchSpanProcessor, InMemorySpanExporter } = await import("@opentelemetry/sdk-trace");
  const exporter = new InMemorySpanExporter();
  // Not registered globally: the "tracing off" arm must still see the API's no-op.
  const provider = new TracerProvider({ spanProcessors: [new BatchSpanProcessor({ exporter, maxQueueSize: 2048, scheduledDelayMillis: 200 })] });
  const started = performance.now();
  const result = await measureTracingOverhead({
    calls,
    rounds,
    sdkTracer: provider.getTracer("ctxkit-bench"),
    onRound: (done, total) => {
      if (!flags.json) io.stderr.write(`bench tracing: round ${done}/${total}\n`);
    },
  });
  await provider.forceFlush();
  const exportedSpans = exporter.getFinishedSpans().length;
  await provider.shutdown();
  const elapsedMs = Math.round(performance.now() - started);
  const json = { benchmark: "tracing", node: process.version, elapsedMs, exportedSpans, ...result };
  const out = benchOutputPath(io, extra.out as string | undefined, "bench-results/tracing.json");
  await mkdir(dirname(out), { recursive: true });
  await writeFile(out, `${JSON.stringify(json, null, 2)}\n`);
  if (flags.json) io.stdout.write(`${JSON.stringify(json, null, 2)}\n`);
  else {
    const off = result.overhead["tracing off"] ?? 0;
    io.stdout.write(
      `${formatTracingOverhead(result)}\n` +
        `Tracing off costs ${(off * 100).toFixed(2)}% of the ${calls}-call run's loop time (${off < 0.02 ? "under" : "NOT under"} 2%). ` +
        `The SDK arm exported ${exportedSpans} spans in all. Took ${(elapsedMs / 1000).toFixed(1)} s. Wrote ${relative(io.cwd, out) || out}.\n`,
    );
  }
  return 0;
}
