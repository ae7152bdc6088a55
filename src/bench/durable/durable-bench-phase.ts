import { spawn, type ChildProcess } from "node:child_process";
import type pg from "pg";
import { openDurableClient } from "../../durable/durable-client.js";
import { nodeScriptCommand } from "../node-script-command.js";
import { benchMaxCallTokens, benchModelUsageTable, benchSideEffectsTable } from "./bench-durable-agent.js";
import type { DurableBenchSettings } from "./durable-bench-result.js";

export interface PhaseOutcome {
  runs: number;
  completed: number;
  resumed: number;
  duplicateModelCalls: number;
  duplicateSideEffects: number;
  /** What the shared budget's ledger counted, and its limit. */
  spentTokens: number;
  limitTokens: number;
  /** What the model billed: every call attempt's tokens, those a kill cut off included (0 without `budget`). */
  billedTokens: number;
  /** Runs refused by the shared budget (failed with `budget_exceeded`). */
  refused: number;
  /** Runs neither completed nor refused, by status (and error code when failed): every run is accounted for. */
  otherOutcomes: Record<string, number>;
  runMs: number[];
  recoverySeconds: number[];
  elapsedMs: number;
  confirmations: { rerun: number; skip: number };
  kills: number;
}

interface WorkerProcess {
  child: ChildProcess;
  executorId: Promise<string>;
}

const workerScript = nodeScriptCommand(new URL("./durable-worker-process.js", import.meta.url));

function startWorker(url: string, settings: DurableBenchSettings): WorkerProcess {
  const child = spawn(workerScript.command, [...workerScript.args, url, String(settings.concurrency), String(settings.staleAfterMs)], { stdio: ["ignore", "pipe", "pipe"] });
  const executorId = new Promise<string>((resolve, reject) => {
    let text = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      text += chunk.toString("utf8");
      const match = /ready (\S+)/.exec(text);
      if (match) resolve(match[1]!);
    });
    child.once("exit", (code) => reject(new Error(`a bench worker exited with code ${code} before it was ready`)));
  });
  executorId.catch(() => undefined);
  child.stderr!.resume();
  return { child, executorId };
}

/**
 * One phase of the bench on its own database: start `workers` worker processes, submit `runs` runs
 * (one shared budget: `budget`'s limit, which the runs are meant to reach, else one they never
 * reach; with `budget` each model call attempt is billed to a table as it starts), SIGKILL a random worker every `killEveryMs` (0: never) and start a new one,
 * answer interrupted side-effecting calls by checking whether the effect happened, and wait until
 * every run settled (or `deadlineMs` passed).
 */
export async function runDurableBenchPhase(url: string, admin: pg.Pool, settings: DurableBenchSettings, phase: { workers: number; runs: number; killEveryMs: number; deadlineMs: number; budget?: { limitTokens: number; useFactor?: number }; onProgress?: (done: number) => void }): Promise<PhaseOutcome> {
  const client = await openDurableClient(url);
  await admin.query(`CREATE TABLE IF NOT EXISTS ${benchSideEffectsTable} (run_key text NOT NULL, step integer NOT NULL)`);
  await admin.query(`CREATE TABLE IF NOT EXISTS ${benchModelUsageTable} (run_key text NOT NULL, tokens integer NOT NULL)`);
  const limitTokens = phase.budget?.limitTokens ?? 1_000_000_000;
  await client.defineBudget("bench", limitTokens, benchMaxCallTokens);
  const workers: WorkerProcess[] = [];
  for (let index = 0; index < phase.workers; index += 1) workers.push(startWorker(url, settings));
  await Promise.all(workers.map((worker) => worker.executorId));
  const started = Date.now();
  const submitted = new Map<string, number>();
  for (let index = 0; index < phase.runs; index += 1) {
    const run = await client.submit({ task: `bench task ${index}`, budgetScope: "bench", agent: { kind: "bench", input: { steps: settings.steps, modelLatencyMs: settings.modelLatencyMs, toolLatencyMs: settings.toolLatencyMs, runKey: `run-${index}`, ...(phase.budget ? { billed: true, useFactor: phase.budget.useFactor ?? 1 } : {}) } } });
    submitted.set(run.id, Date.now());
  }
  const finished = new Map<string, number>();
  const recoveries: Array<{ killedAt: number; executor: string; runs: Set<string>; doneAt?: number }> = [];
  const confirmations = { rerun: 0, skip: 0 };
  let kills = 0;
  let nextKill = phase.killEveryMs > 0 ? Date.now() + phase.killEveryMs : Number.POSITIVE_INFINITY;
  const deadline = started + phase.deadlineMs;
  while (finished.size < phase.runs && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    const rows = (await admin.query<{ id: string; status: string; executor: string | null; paused_call: { callKey: string } | null; task: string }>("SELECT id, status, executor, paused_call, task FROM ctxkit_runs")).rows;
    for (const row of rows) {
      if (!finished.has(row.id) && ["completed", "failed", "cancelled"].includes(row.status)) finished.set(row.id, Date.now());
      if (row.status === "needs_confirmation" && row.paused_call) {
        const step = Number(/tool-(\d+)-/.exec(row.paused_call.callKey)?.[1] ?? -1);
        const runKey = `run-${row.task.replace("bench task ", "")}`;
        const happened = (await admin.query(`SELECT 1 FROM ${benchSideEffectsTable} WHERE run_key = $1 AND step = $2`, [runKey, step])).rowCount! > 0;
        await client.resume(row.id, happened ? "skip" : "rerun").catch(() => undefined);
        confirmations[happened ? "skip" : "rerun"] += 1;
      }
    }
    for (const recovery of recoveries) {
      if (recovery.doneAt !== undefined) continue;
      const moved = [...recovery.runs].every((id) => {
        const row = rows.find((candidate) => candidate.id === id);
        return row === undefined || row.executor !== recovery.executor || finished.has(id);
      });
      if (moved) recovery.doneAt = Date.now();
    }
    phase.onProgress?.(finished.size);
    if (Date.now() >= nextKill && finished.size < phase.runs) {
      nextKill = Date.now() + phase.killEveryMs;
      const index = Math.floor(Math.random() * workers.length);
      const victim = workers[index]!;
      const executor = await victim.executorId;
      const held = new Set(rows.filter((row) => row.executor === executor && (row.status === "running" || row.status === "needs_confirmation")).map((row) => row.id));
      victim.child.kill("SIGKILL");
      kills += 1;
      if (held.size > 0) recoveries.push({ killedAt: Date.now(), executor, runs: held });
      workers[index] = startWorker(url, settings);
    }
  }
  const elapsedMs = Date.now() - started;
  // Stopped as a person stops them (SIGTERM: DBOS shuts down, a profile is written), killed if that takes over 5 s.
  await Promise.all(workers.map((worker) => stopWorker(worker.child)));
  const duplicateSideEffects = Number((await admin.query<{ duplicates: string }>(`SELECT count(*) - count(DISTINCT (run_key, step)) AS duplicates FROM ${benchSideEffectsTable}`)).rows[0]?.duplicates ?? 0);
  const duplicateModelCalls = Number((await admin.query<{ repeats: string }>("SELECT coalesce(sum(attempts - 1), 0) AS repeats FROM ctxkit_model_calls")).rows[0]?.repeats ?? 0);
  const runsNow = (await admin.query<{ id: string; status: string; attempts: number; result: { error?: { code: string } } | null }>("SELECT id, status, attempts, result FROM ctxkit_runs")).rows;
  const budget = await client.readBudget("bench");
  const billedTokens = Number((await admin.query<{ tokens: string | null }>(`SELECT sum(tokens) AS tokens FROM ${benchModelUsageTable}`)).rows[0]?.tokens ?? 0);
  await client.close();
  return {
    runs: phase.runs,
    completed: runsNow.filter((row) => row.status === "completed").length,
    resumed: runsNow.filter((row) => row.attempts > 1).length,
    duplicateModelCalls,
    duplicateSideEffects,
    spentTokens: budget?.spentTokens ?? 0,
    limitTokens,
    billedTokens,
    refused: runsNow.filter(isRefused).length,
    otherOutcomes: countOtherOutcomes(runsNow),
    runMs: [...finished].map(([id, at]) => at - submitted.get(id)!),
    recoverySeconds: recoveries.map((recovery) => ((recovery.doneAt ?? Date.now()) - recovery.killedAt) / 1000),
    elapsedMs,
    confirmations,
    kills,
  };
}

type RunRow = { status: string; result: { error?: { code: string } } | null };

const isRefused = (row: RunRow) => row.status === "failed" && row.result?.error?.code === "budget_exceeded";

function countOtherOutcomes(rows: RunRow[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const row of rows) {
    if (row.status === "completed" || isRefused(row)) continue;
    const outcome = row.status === "failed" ? `failed (${row.result?.error?.code ?? "no error code"})` : row.status;
    counts[outcome] = (counts[outcome] ?? 0) + 1;
  }
  return counts;
}

async function stopWorker(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
  await exited;
  clearTimeout(timer);
}
