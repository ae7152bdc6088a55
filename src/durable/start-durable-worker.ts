import { hostname } from "node:os";
import { randomBytes } from "node:crypto";
import { createPostgresSessionStore } from "../session/create-postgres-session-store.js";
import type { DurableAgentBuilder } from "./durable-agent-builder.js";
import { DURABLE_APP_VERSION, DURABLE_APPLICATION, DURABLE_QUEUE, DURABLE_WORKFLOW, openDurableDatabase, type DurableDatabase } from "./durable-database.js";
import { loadDbos } from "./load-dbos.js";
import { ConfigError } from "../types/index.js";
import { runDurableWorkflow, type DurableWorkflowOptions } from "./run-durable-workflow.js";
import { withIdleTransactionTimeout } from "./with-idle-transaction-timeout.js";
import { durableWorkerTimings } from "./durable-worker-timings.js";
import { collapseRepeatedLog } from "./collapse-repeated-log.js";
import type { AgentTracing } from "../tracing/agent-tracing.js";
import type { AgentEvent } from "../types/index.js";

export interface DurableWorkerOptions {
  connectionString: string;
  /** Runs this worker executes at once. Default 4. */
  concurrency?: number;
  /** Unique per worker process; default `<host>-<pid>-<random>`. */
  executorId?: string;
  builders: Readonly<Record<string, DurableAgentBuilder>>;
  /** How often the worker says it is alive. Default 2 s, or a third of `staleAfterMs` when that is shorter; at most half of it. */
  heartbeatMs?: number;
  /** A worker silent this long is dead: a watchdog re-enqueues its runs. Default 15 s (so a run resumes within ≤ 30 s); at least 1 s. */
  staleAfterMs?: number;
  /** How often the queue is polled for new runs. Default 200 ms. */
  pollMs?: number;
  /** The time its runs' steps record, which their status lines show (default: the system clock). */
  clock?: () => Date;
  /** Traces each run (`createAgentTracing`): its spans nest under the run's stored traceparent. */
  tracing?: Pick<AgentTracing, "traceRun">;
  /**
   * Each event of each run's agent (warnings such as a shared budget's `budget_threshold`); library
   * code never prints. The events of a run's replayed part (after a crash) come again, except
   * `budget_threshold` warnings: one comes only from the attempt whose call crossed the threshold.
   * A callback that throws is reported through `onLog` and does not fail the run.
   */
  onRunEvent?: (runId: string, event: AgentEvent) => void;
  /**
   * What the worker and DBOS report (library code never prints; the CLI decides). A warning or error repeated
   * within 30 s (DBOS's pollers while the database is down) comes once, then as a count; when the
   * heartbeat reaches the database again after failing, an `info` line says so ("database reachable again").
   */
  onLog?: (level: "info" | "warn" | "error", message: string) => void;
}

export interface DurableWorker {
  executorId: string;
  stop(): Promise<void>;
}

/**
 * Starts a worker: DBOS on the runs' database (one DBOS per process), the `ctxkit-run` workflow
 * and queue, a heartbeat, and a watchdog that recovers dead workers' runs. Self-hosted DBOS recovers
 * only its own executor's workflows when it restarts; the watchdog claims executors whose heartbeat
 * is stale (each claimed by one watchdog) and re-enqueues their pending workflows for any worker.
 */
export async function startDurableWorker(options: DurableWorkerOptions): Promise<DurableWorker> {
  if (workerRunning) {
    throw new ConfigError("option_invalid", "A durable worker is already running in this process (DBOS runs one per process): stop() it first, or raise its concurrency instead of starting a second one.");
  }
  workerRunning = true;
  try {
    return await launchWorker(options);
  } catch (error) {
    // A launch that failed half-way must not leave its workflow registered for the next try.
    await loadDbos().then(({ DBOS }) => DBOS.shutdown({ deregister: true })).catch(() => undefined);
    workerRunning = false;
    throw error;
  }
}

/** DBOS keeps one registry per process: one worker at a time, and a stopped worker's workflow is deregistered so another can start. */
let workerRunning = false;

async function launchWorker(options: DurableWorkerOptions): Promise<DurableWorker> {
  // Checked before anything connects: a heartbeat slower than the staleness bound had live workers' runs taken over.
  const timings = durableWorkerTimings(options);
  const concurrency = options.concurrency ?? 4;
  const executorId = options.executorId ?? `${hostname()}-${process.pid}-${randomBytes(3).toString("hex")}`;
  // While the database is down each of DBOS's pollers fails several times a second: about 12 lines a second, unrepeated.
  const repeated = collapseRepeatedLog(options.onLog ?? (() => undefined));
  const log = repeated.log;
  const database = await openDurableDatabase(options.connectionString, concurrency + 4);
  const sessions = await createPostgresSessionStore({ connectionString: options.connectionString, maxConnections: concurrency + 2 });
  const { DBOS, recoverPendingWorkflows } = await loadDbos();
  const text = (entry: unknown) => (entry instanceof Error ? entry.message : typeof entry === "string" ? entry : JSON.stringify(entry));
  DBOS.setConfig({
    name: DURABLE_APPLICATION,
    systemDatabaseUrl: withIdleTransactionTimeout(options.connectionString),
    systemDatabasePoolSize: concurrency + 4,
    executorID: executorId,
    applicationVersion: DURABLE_APP_VERSION,
    logger: { info: (entry) => log("info", text(entry)), debug: () => undefined, warn: (entry) => log("warn", text(entry)), error: (entry) => log("error", text(entry)) },
  });
  const cancellations = watchCancellations(database.tables, 1_000);
  const workflow = DBOS.registerWorkflow(
    (runId: string, workflowOptions?: DurableWorkflowOptions) =>
      runDurableWorkflow(runId, {
        executorId,
        tables: database.tables,
        sessions,
        budget: database.budget,
        builders: options.builders,
        step: (name, work) => DBOS.runStep(work, { name }),
        inStep: () => DBOS.isInStep(),
        now: () => (options.clock ? options.clock().getTime() : Date.now()),
        receive: async <Message>(topic: string, timeoutSeconds: number) => (await DBOS.recv<Message>(topic, timeoutSeconds)) ?? undefined,
        ...(options.tracing ? { tracing: options.tracing } : {}),
        ...(options.onRunEvent ? { onRunEvent: options.onRunEvent } : {}),
        onLog: log,
        watchCancellation: cancellations.watch,
      }, workflowOptions),
    { name: DURABLE_WORKFLOW },
  );
  void workflow;
  await DBOS.launch();
  await DBOS.registerQueue(DURABLE_QUEUE, { workerConcurrency: concurrency, minPollingIntervalMs: options.pollMs ?? 200, onConflict: "always_update" });
  const worker = { executorId, host: hostname(), pid: process.pid, concurrency, appVersion: DURABLE_APP_VERSION };
  await database.tables.heartbeat(worker);
  let unreachableSince: number | undefined;
  const heartbeat = setInterval(() => {
    void database.tables.heartbeat(worker).then(
      () => {
        // Also ends the windows of messages no longer coming, so their counts are said without waiting for another message.
        repeated.sweep();
        if (unreachableSince === undefined) return;
        const seconds = Math.round((Date.now() - unreachableSince) / 1000);
        unreachableSince = undefined;
        repeated.flush();
        log("info", `database reachable again: the heartbeat failed for ${seconds} s`);
      },
      (error: unknown) => {
        unreachableSince ??= Date.now();
        log("warn", `heartbeat failed: ${text(error)}`);
      },
    );
  }, timings.heartbeatMs);
  const { staleAfterMs } = timings;
  const watchdog = setInterval(() => {
    void (async () => {
      // Reservations of shared budgets held by runs no longer running (a worker killed during a call
      // of a run that then ended, a pause) would hold the budget forever: they are dead attempts', and
      // are charged (the provider may have billed them).
      const charged = await database.budget.chargeEnded();
      if (charged > 0) log("info", `charged ${charged} reserved token(s) of ended runs' interrupted calls`);
      // Only dead workers of this worker's version: DBOS re-enqueues only workflows of its own version.
      const dead = (await database.tables.claimStaleExecutors(staleAfterMs, DURABLE_APP_VERSION)).filter((id) => id !== executorId);
      if (dead.length === 0) return;
      const recovered = await recoverPendingWorkflows(dead);
      const kept: string[] = [];
      for (const id of dead) if (!(await database.tables.forgetWorker(id))) kept.push(id);
      log("info", `recovered ${recovered.length} run(s) of stopped worker(s) ${dead.join(", ")}`);
      if (kept.length > 0) log("info", `kept stopped worker(s) ${kept.join(", ")}: runs of another application version are pending on them, for a worker of that version`);
    })().catch((error: unknown) => log("warn", `watchdog failed: ${text(error)}`));
  }, timings.watchdogMs);
  return {
    executorId,
    async stop() {
      clearInterval(heartbeat);
      clearInterval(watchdog);
      cancellations.stop();
      await DBOS.shutdown({ deregister: true });
      workerRunning = false;
      await database.tables.retireWorker(executorId).catch(() => undefined);
      await Promise.all([sessions.close(), database.close()]);
      repeated.flush();
    },
  };
}

/**
 * One query a second for all the runs a worker is running (not one per run): which of them were
 * cancelled. A cancelled run's model or tool call in flight is aborted; DBOS stops it at its next step too.
 */
function watchCancellations(tables: DurableDatabase["tables"], everyMs: number) {
  const watched = new Map<string, () => void>();
  const timer = setInterval(() => {
    if (watched.size === 0) return;
    tables.cancelledAmong([...watched.keys()]).then(
      (cancelled) => {
        for (const id of cancelled) watched.get(id)?.();
      },
      () => undefined,
    );
  }, everyMs);
  timer.unref();
  return {
    watch(runId: string, cancel: () => void): () => void {
      watched.set(runId, cancel);
      return () => void watched.delete(runId);
    },
    stop: () => clearInterval(timer),
  };
}
