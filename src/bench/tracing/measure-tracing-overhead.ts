import { trace, type Tracer } from "@opentelemetry/api";
import { assembleAgent } from "../../agents/assemble-agent.js";
import { createScriptedProvider } from "../../providers/scripted/index.js";
import { defineTool } from "../../tools/tool.js";
import { createAgentTracing } from "../../tracing/index.js";
import type { AgentEvent } from "../../types/index.js";
import { formatTextTable } from "../text-table.js";

/** How a run's events are consumed: bare, through tracing with no SDK (the API's no-op), through tracing into an SDK. */
export type TracingArm = "untraced" | "tracing off" | "tracing on";

export interface TracingOverheadOptions {
  /** Model calls per run (default 500). */
  calls?: number;
  /** Rounds; each runs every arm once, in rotating order (default 5). */
  rounds?: number;
  /** The tracer of the `tracing on` arm (an SDK's); without it that arm is left out. */
  sdkTracer?: Tracer;
  onRound?: (done: number, total: number) => void;
  /**
   * After each timed run of an arm, untimed: the SDK arm flushes its batch queue here, so the queue
   * (which a loop that never yields to timers cannot drain) holds one run at most and drops nothing.
   */
  afterRun?: (arm: TracingArm) => Promise<void>;
}

export interface TracingOverheadResult {
  calls: number;
  rounds: number;
  /** Loop time of each arm in each round, in ms. */
  loopMs: Record<TracingArm, number[]>;
  /**
   * CPU time (user + system) this process spent in each arm's loop, per round, in ms. Other processes
   * on a loaded machine take wall time from a run but add little CPU time to it: the steadier measure.
   */
  cpuMs: Record<TracingArm, number[]>;
  /** Median over rounds of each arm's loop time. */
  medianMs: Partial<Record<TracingArm, number>>;
  /** Fastest of the rounds of each arm, in ms. */
  minMs: Partial<Record<TracingArm, number>>;
  /**
   * The cost of an arm: its fastest run ÷ the fastest untraced run − 1. On a shared machine other
   * processes only ever add time, so the fastest run is the one least disturbed.
   */
  overhead: Partial<Record<Exclude<TracingArm, "untraced">, number>>;
  /** Median over rounds of (arm ÷ untraced − 1), paired within a round: the same cost, more exposed to load. */
  pairedMedianOverhead: Partial<Record<Exclude<TracingArm, "untraced">, number>>;
  /**
   * The headline: tracing-off loop time ÷ untraced loop time, fastest ÷ fastest (`fastest`) and the
   * median of the per-round ratios (`pairedMedian`), both from this one process's interleaved rounds.
   */
  offRatio: { fastest: number; pairedMedian: number };
  /** The same ratio over CPU time: fastest ÷ fastest and the median of paired rounds. */
  offCpuRatio: { fastest: number; pairedMedian: number };
  /** The untraced arm's slowest ÷ fastest run − 1: the machine's noise, what a ratio can resolve. */
  untracedSpread: number;
}

const echo = defineTool({
  name: "echo",
  description: "Returns its text.",
  parameters: { type: "object", properties: { text: { type: "string" } }, required: ["text"], additionalProperties: false } as const,
  parallelSafe: true,
  execute: async ({ text }) => text,
});

/**
 * A 500-call offline run (scripted provider, one small tool per call, no session), timed from the
 * first event to the last. The arms consume the same run; the ratio compares them within a round, so
 * a machine that slows down between rounds moves both sides.
 */
async function timeRun(calls: number, consume: (events: AsyncIterable<AgentEvent>) => AsyncIterable<AgentEvent>): Promise<{ wallMs: number; cpuMs: number }> {
  const provider = createScriptedProvider({
    turns: (_request, index) => (index < calls - 1 ? { toolCalls: [{ name: "echo", arguments: { text: `step ${index}` } }], usage: { inputTokens: 1000 + index, cachedInputTokens: 900, outputTokens: 12 } } : "done"),
  });
  // No safety nets: the run is one echo call after another, and what is timed is the loop with and
  // without tracing, not a policy that could stop a long run of calls.
  const { agent } = await assembleAgent({ provider, system: "You run a benchmark.", tools: [echo], defaults: false, runtime: { maxIterations: calls + 1 } });
  const started = performance.now();
  const cpu = process.cpuUsage();
  let events = 0;
  for await (const event of consume(agent.run("Go."))) {
    if (event.type !== "text_delta") events += 1;
  }
  if (events === 0) throw new Error("the benchmark run produced no events");
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return { wallMs, cpuMs: (used.user + used.system) / 1000 };
}

export async function measureTracingOverhead(options: TracingOverheadOptions = {}): Promise<TracingOverheadResult> {
  const calls = options.calls ?? 500;
  const rounds = options.rounds ?? 5;
  // No SDK is registered in this process for this arm: the global API hands out its no-op tracer.
  const off = createAgentTracing({ tracer: trace.getTracer("ctxkit-bench") }, {});
  const on = options.sdkTracer ? createAgentTracing({ tracer: options.sdkTracer }, {}) : undefined;
  const arms: Array<[TracingArm, (events: AsyncIterable<AgentEvent>) => AsyncIterable<AgentEvent>]> = [
    ["untraced", (events) => events],
    ["tracing off", (events) => off.traceRun(events)],
    ...(on ? [["tracing on", (events: AsyncIterable<AgentEvent>) => on.traceRun(events)] as [TracingArm, (events: AsyncIterable<AgentEvent>) => AsyncIterable<AgentEvent>]] : []),
  ];
  const loopMs: Record<TracingArm, number[]> = { untraced: [], "tracing off": [], "tracing on": [] };
  const cpuMs: Record<TracingArm, number[]> = { untraced: [], "tracing off": [], "tracing on": [] };
  // One warm-up run per arm (JIT, module loading) is not counted.
  for (const [arm, consume] of arms) {
    await timeRun(Math.min(calls, 50), consume);
    await options.afterRun?.(arm);
  }
  for (let round = 0; round < rounds; round++) {
    // Rotating the order keeps "which arm ran first" from favouring one.
    for (let offset = 0; offset < arms.length; offset++) {
      const [arm, consume] = arms[(round + offset) % arms.length]!;
      const timed = await timeRun(calls, consume);
      loopMs[arm].push(timed.wallMs);
      cpuMs[arm].push(timed.cpuMs);
      await options.afterRun?.(arm);
    }
    options.onRound?.(round + 1, rounds);
  }
  const medianMs: TracingOverheadResult["medianMs"] = {};
  const minMs: TracingOverheadResult["minMs"] = {};
  const overhead: TracingOverheadResult["overhead"] = {};
  const pairedMedianOverhead: TracingOverheadResult["pairedMedianOverhead"] = {};
  for (const [arm] of arms) {
    medianMs[arm] = median(loopMs[arm]);
    minMs[arm] = Math.min(...loopMs[arm]);
    if (arm === "untraced") continue;
    overhead[arm] = minMs[arm]! / Math.min(...loopMs.untraced) - 1;
    pairedMedianOverhead[arm] = median(loopMs[arm].map((ms, round) => ms / loopMs.untraced[round]! - 1));
  }
  const offRatio = { fastest: 1 + overhead["tracing off"]!, pairedMedian: 1 + pairedMedianOverhead["tracing off"]! };
  const untracedSpread = Math.max(...loopMs.untraced) / Math.min(...loopMs.untraced) - 1;
  const offCpuRatio = {
    fastest: Math.min(...cpuMs["tracing off"]) / Math.min(...cpuMs.untraced),
    pairedMedian: median(cpuMs["tracing off"].map((ms, round) => ms / cpuMs.untraced[round]!)),
  };
  return { calls, rounds, loopMs, cpuMs, medianMs, minMs, overhead, pairedMedianOverhead, offRatio, offCpuRatio, untracedSpread };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export function formatTracingOverhead(result: TracingOverheadResult): string {
  const percent = (value: number | undefined) => `${((value ?? 0) * 100).toFixed(2)}%`;
  const rows = (Object.keys(result.medianMs) as TracingArm[]).map((arm) => [
    arm,
    result.minMs[arm]!.toFixed(1),
    result.medianMs[arm]!.toFixed(1),
    (result.minMs[arm]! / result.calls).toFixed(3),
    arm === "untraced" ? "—" : percent(result.overhead[arm]),
    arm === "untraced" ? "—" : percent(result.pairedMedianOverhead[arm]),
  ]);
  return formatTextTable(["arm", `fastest loop ms (of ${result.rounds})`, "median loop ms", "ms per call", "overhead (fastest)", "overhead (median paired)"], rows);
}
