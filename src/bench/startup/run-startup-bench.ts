import { spawn } from "node:child_process";
import { readdirSync } from "node:fs";
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
  /** A ctxkit start as it would be without one of its measures (not what a user gets): no goal. */
  comparison?: true;
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
  /**
   * What ends the measurement: the process exiting, the model server receiving its first request,
   * or the run's session file appearing in the workspace (`.ctxkit/sessions/`).
   */
  until: "exit" | "first-request" | "session-file";
  /** How the table shows the command. */
  command: string;
  /** Variables added to the probe's environment. */
  env?: Record<string, string>;
  reference?: true;
  comparison?: true;
}

/**
 * CLI start-up, side by side: a bare `node -e ''`, `ctxkit --help`, `ctxkit run --help` (both printed
 * from dist/cli-bundle/help.json; a help request it does not hold, through the bundle), and the start
 * of a real run (spawn until the first model request reaches a local OpenAI-compatible server, and
 * until its session file appears; the process is then killed, so the rest of the run does not
 * overlap the next probe), the same run without the CLI's code cache, and bare node sending one
 * fetch. The probes are interleaved run by run, so a busy moment of the machine hits each of them
 * alike. One whole run comes first, unmeasured: it builds what a clone builds on first use and
 * writes the code cache, as any earlier run of ctxkit would have.
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
    // A help request help.json holds no answer for: the bundle is loaded (and, in a clone, checked).
    { name: "ctxkit run --help, through the bundle", args: [ctxkitBinary, "run", "--model", "m", "--help"], until: "exit", command: "node bin/ctxkit.js run --model m --help", comparison: true },
    { name: "ctxkit run (to the first model request)", args: [ctxkitBinary, ...runArgs], until: "first-request", command: `node bin/ctxkit.js ${runArgs.join(" ")}` },
    { name: "ctxkit run (to its session file)", args: [ctxkitBinary, ...runArgs], until: "session-file", command: `node bin/ctxkit.js ${runArgs.join(" ")}` },
    { name: "ctxkit run, no code cache (to the first model request)", args: [ctxkitBinary, ...runArgs], until: "first-request", command: `CTXKIT_NO_CODE_CACHE=1 node bin/ctxkit.js ${runArgs.join(" ")}`, env: { CTXKIT_NO_CODE_CACHE: "1" }, comparison: true },
    { name: "node: one fetch (to the request)", args: ["-e", oneFetch], until: "first-request", command: "node -e 'fetch(<server>, { method: \"POST\" })'", reference: true },
  ];
  const times = probes.map(() => [] as number[]);
  try {
    await warmUp(runArgs, home);
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
    return { name: probe.name, command: probe.command, runsMs, medianMs: median(runsMs), minMs: Math.min(...runsMs), ratio: median(runsMs) / bare, ...(probe.reference ? { reference: true as const } : {}), ...(probe.comparison ? { comparison: true as const } : {}) };
  });
  return { benchmark: "startup", runs, goal: startupGoal, measurements };
}

function probeEnv(home: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH ?? "", HOME: home, XDG_CONFIG_HOME: join(home, ".config"), NO_COLOR: "1", ...extra };
}

/** One whole run, unmeasured (see runStartupBench). */
function warmUp(runArgs: string[], home: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [ctxkitBinary, ...runArgs], { cwd: home, env: probeEnv(home), stdio: "ignore" });
    child.once("error", reject);
    child.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`the warm-up run exited with ${code}`))));
  });
}

/** The session files of runs in `home` (a run started in it stores its session under it). */
function sessionFiles(home: string): Set<string> {
  try {
    return new Set(readdirSync(join(home, ".ctxkit", "sessions")));
  } catch {
    return new Set();
  }
}

function timeProbe(probe: Probe, home: string, requestCount: () => number): Promise<number> {
  return new Promise((resolve, reject) => {
    const before = requestCount();
    const filesBefore = probe.until === "session-file" ? sessionFiles(home) : new Set<string>();
    const reached = () => (probe.until === "first-request" ? requestCount() > before : [...sessionFiles(home)].some((file) => !filesBefore.has(file)));
    const started = performance.now();
    const child = spawn(process.execPath, probe.args, { cwd: home, env: probeEnv(home, probe.env), stdio: "ignore" });
    let poll: NodeJS.Timeout | undefined;
    let reachedAfter: number | undefined;
    if (probe.until !== "exit") {
      poll = setInterval(() => {
        if (reached()) {
          clearInterval(poll);
          reachedAfter = performance.now() - started;
          // The rest of the run is not measured, and must not run on beside the next probe.
          child.kill("SIGKILL");
        }
      }, 2);
    }
    child.once("error", reject);
    child.once("exit", () => {
      clearInterval(poll);
      if (probe.until === "exit") resolve(performance.now() - started);
      else if (reachedAfter !== undefined || reached()) resolve(reachedAfter ?? performance.now() - started);
      else reject(new Error(`${probe.name} exited before ${probe.until === "first-request" ? "it sent a model request" : "its session file appeared"}`));
    });
  });
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export function formatStartupReport(result: StartupBenchResult): string {
  const rows = result.measurements.map((entry) => [entry.name, `${entry.medianMs} ms`, `${entry.minMs} ms`, `${entry.ratio.toFixed(2)}×`, entry.reference ? "(reference)" : entry.comparison ? "(comparison)" : entry.ratio <= result.goal ? "yes" : "no"]);
  return `CLI start-up, ${result.runs} runs each, interleaved (goal: within ${result.goal}× of bare node)\n\n${formatTextTable(["probe", "median", "min", "vs bare node", "within goal"], rows)}\n`;
}
