import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { CommandProcesses, defaultProcessSearchBudget } from "../../tools/builtin/command-processes.js";
import { bashArguments, createLimitMarker, releaseLimitMarker } from "../../tools/builtin/limit-marker.js";
import { formatTextTable } from "../text-table.js";

const usage = `Usage: node dist/bench/bash-processes/run.js [--runs <n>] [--processes <n,n,…>] [--json <out.json>]

What the bash tool's process markers cost (Linux only): the start of a call's shell, plain and
through the first shell that sets the limit marker, and one scan of /proc for the call's processes
with --processes (0,500,1500) unrelated processes started after the call's shell, without and with
the limit marker, and with a budget of 100 processes checked (the search stops and says so; the
default budget is ${defaultProcessSearchBudget.maxMilliseconds} ms or ${defaultProcessSearchBudget.maxCheckedProcesses} processes checked). A scan runs at least twice a call (when
the shell ends and when the call returns).
`;

interface Timing {
  name: string;
  runs: number;
  medianMs: number;
  p90Ms: number;
}

function summarise(name: string, times: number[]): Timing {
  const sorted = [...times].sort((left, right) => left - right);
  const at = (share: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))]!;
  return { name, runs: times.length, medianMs: at(0.5), p90Ms: at(0.9) };
}

function milliseconds(action: () => void): number {
  const start = process.hrtime.bigint();
  action();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** The shell's start, plain and with the marker, interleaved run by run so a busy moment hits both alike. */
function measureShellStart(runs: number): Timing[] {
  const marker = createLimitMarker();
  const plain: number[] = [];
  const marked: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    plain.push(milliseconds(() => spawnSync("/bin/bash", bashArguments("true", undefined))));
    marked.push(milliseconds(() => spawnSync("/bin/bash", bashArguments("true", marker))));
  }
  if (marker !== undefined) releaseLimitMarker(marker);
  return [summarise("shell start: /bin/bash -c", plain), summarise("shell start: through the limit marker's shell", marked)];
}

/**
 * One scan with `count` unrelated processes newer than the call's shell. The stand-in shell shares
 * this process's group, so the scan's group kill finds no group of its pid and kills nothing.
 */
async function measureScans(counts: number[], runs: number): Promise<Timing[]> {
  const { CTXKIT_BASH_CALL: _inherited, ...environment } = process.env;
  const shell = spawn("sleep", ["600"], { stdio: "ignore", env: environment });
  const others: ChildProcess[] = [];
  const timings: Timing[] = [];
  try {
    await new Promise((resolve) => setTimeout(resolve, 50));
    for (const count of counts) {
      while (others.length < count) others.push(spawn("sleep", ["600"], { detached: true, stdio: "ignore", env: environment }));
      await new Promise((resolve) => setTimeout(resolve, 500 + count));
      const marker = createLimitMarker();
      for (const withLimit of [false, true]) {
        const times: number[] = [];
        for (let run = 0; run < runs; run += 1) {
          const processes = new CommandProcesses(shell.pid!, "bench", withLimit ? marker : undefined);
          times.push(milliseconds(() => processes.killAll()));
          processes.release();
        }
        timings.push(summarise(`scan, ${count} newer processes, ${withLimit ? "with" : "without"} the limit marker`, times));
      }
      // The bound at work: a budget of 100 checks stops the search, which says it was cut.
      const times: number[] = [];
      let cut = 0;
      for (let run = 0; run < runs; run += 1) {
        const processes = new CommandProcesses(shell.pid!, "bench", marker, { ...defaultProcessSearchBudget, maxCheckedProcesses: 100 });
        times.push(milliseconds(() => processes.killAll()));
        if (processes.lastSearchCut !== undefined) cut += 1;
        processes.release();
      }
      timings.push(summarise(`scan, ${count} newer processes, at most 100 checked (cut in ${cut} of ${runs})`, times));
      if (marker !== undefined) releaseLimitMarker(marker);
    }
  } finally {
    for (const child of [...others, shell]) child.kill("SIGKILL");
  }
  return timings;
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { runs: { type: "string" }, processes: { type: "string" }, json: { type: "string" }, help: { type: "boolean", short: "h" } } });
  if (values.help) {
    console.log(usage);
    return 0;
  }
  if (process.platform !== "linux") {
    console.log("Skipped: the markers read /proc, on Linux only.");
    return 0;
  }
  const runs = Number(values.runs ?? 40);
  const counts = (values.processes ?? "0,500,1500").split(",").map(Number);
  const timings = [...measureShellStart(runs), ...(await measureScans(counts, Math.max(3, Math.floor(runs / 8))))];
  console.log(formatTextTable(["measure", "runs", "median ms", "p90 ms"], timings.map((timing) => [timing.name, String(timing.runs), timing.medianMs.toFixed(2), timing.p90Ms.toFixed(2)])));
  if (values.json !== undefined) await writeFile(values.json, `${JSON.stringify({ benchmark: "bash-processes", timings }, null, 2)}\n`);
  return 0;
}

process.exitCode = await main();
