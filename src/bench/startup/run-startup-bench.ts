import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startOpenAIModelServer } from "../../testing/openai-model-server.js";
import { formatTextTable } from "../text-table.js";

/** The package's own `ctxkit` binary (dist/bench/startup/ → bin/). */
const ctxkitBinary = fileURLToPath(new URL("../../../bin/ctxkit.js", import.meta.url));

/** The issue-30 goal: each measured start within this factor of a bare `node -e ''`. */
export const startupGoal = 1.3;

export interface StartupMeasurement {
  name: string;
  command: string;
  /** Wall milliseconds of each run, in order. */
  runsMs: number[];
  medianMs: number;
  minMs: number;
  /** medianMs over the bare node's medianMs. */
  ratio: number;
  /** A floor to compare with, not a ctxkit start (bare node doing only what a run's start must). */
  reference?: true;
}

export interface StartupBenchResult {
  benchmark: "startup";
  runs: number;
  goal: number;
  measurements: StartupMeasurement[];
}

interface Probe {
  name: string;
  args: string[];
  /** What ends the measurement: the process exiting, or the model server receiving its first request. */
  until: "exit" | "first-request";
  /** How the table shows the command. */
  command: string;
  reference?: true;
}

/**
 * CLI start-up, side by side: a bare `node -e ''`, `ctxkit --help`, `ctxkit run --help`, and the start
 * of a real run (spawn until the first model request reaches a local OpenAI-compatible server; the
 * process is then killed, so the rest of the run does not overlap the next probe). The probes are
 * interleaved run by run, so a busy moment of the machine hits each of them alike.
 */
export async function runStartupBench(runs: number): Promise<StartupBenchResult> {
  const server = await startOpenAIModelServer(() => "Done.");
  const home = await mkdtemp(join(tmpdir(), "ctxkit-startup-"));
  const runArgs = ["run", "--base-url", server.baseURL, "--model", "m", "--yes", "--no-sub-agents", "Say done."];
  // The floor under a run's start: Node's own fetch (undici, loaded on its first call) to the same server.
  const oneFetch = `fetch(${JSON.stringify(`${server.baseURL}/chat/completions`)}, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" }).then((response) => response.text(), () => undefined)`;
  const probes: Probe[] = [
    { name: "bare node", args: ["-e", ""], until: "exit", command: "node -e ''" },
    { name: "ctxkit --help", args: [ctxkitBinary, "--help"], until: "exit", command: "node bin/ctxkit.js --help" },
    { name: "ctxkit run --help", args: [ctxkitBinary, "run", "--help"], until: "exit", command: "node bin/ctxkit.js run --help" },
    { name: "ctxkit run (to the first model request)", args: [ctxkitBinary, ...runArgs], until: "first-request", command: `node bin/ctxkit.js ${runArgs.join(" ")}` },
    { name: "node: one fetch (to the request)", args: ["-e", oneFetch], until: "first-request", command: "node -e 'fetch(<server>, { method: \"POST\" })'", reference: true },
  ];
  const times = probes.map(() => [] as number[]);
  try {
    for (let run = 0; run < runs; run += 1) {
      for (const [index, probe] of probes.entries()) times[index]!.push(await timeProbe(probe, home, () => server.requests.length));
    }
  } finally {
    await server.close();
    await rm(home, { recursive: true, force: true });
  }
  const bare = median(times[0]!);
  const measurements = probes.map((probe, index) => {
    const runsMs = times[index]!.map((value) => Math.round(value));
    return { name: probe.name, command: probe.command, runsMs, medianMs: median(runsMs), minMs: Math.min(...runsMs), ratio: median(runsMs) / bare, ...(probe.reference ? { reference: true as const } : {}) };
  });
  return { benchmark: "startup", runs, goal: startupGoal, measurements };
}

function timeProbe(probe: Probe, home: string, requestCount: () => number): Promise<number> {
  return new Promise((resolve, reject) => {
    const before = requestCount();
    const started = performance.now();
    const child = spawn(process.execPath, probe.args, { cwd: home, env: { PATH: process.env.PATH ?? "", HOME: home, XDG_CONFIG_HOME: join(home, ".config"), NO_COLOR: "1" }, stdio: "ignore" });
    let poll: NodeJS.Timeout | undefined;
    let requestedAfter: number | undefined;
    if (probe.until === "first-request") {
      poll = setInterval(() => {
        if (requestCount() > before) {
          clearInterval(poll);
          requestedAfter = performance.now() - started;
          // The rest of the run is not measured, and must not run on beside the next probe.
          child.kill("SIGKILL");
        }
      }, 2);
    }
    child.once("error", reject);
    child.once("exit", () => {
      clearInterval(poll);
      if (probe.until === "exit") resolve(performance.now() - started);
      else if (requestedAfter !== undefined || requestCount() > before) resolve(requestedAfter ?? performance.now() - started);
      else reject(new Error(`${probe.name} exited before it sent a model request`));
    });
  });
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export function formatStartupReport(result: StartupBenchResult): string {
  const rows = result.measurements.map((entry) => [entry.name, `${entry.medianMs} ms`, `${entry.minMs} ms`, `${entry.ratio.toFixed(2)}×`, entry.reference ? "(reference)" : entry.ratio <= result.goal ? "yes" : "no"]);
  return `CLI start-up, ${result.runs} runs each, interleaved (goal: within ${result.goal}× of bare node)\n\n${formatTextTable(["probe", "median", "min", "vs bare node", "within goal"], rows)}\n`;
}
