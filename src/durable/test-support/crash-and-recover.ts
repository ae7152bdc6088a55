import type pg from "pg";
import { startDurableWorker, type DurableWorker, type DurableWorkerOptions } from "../start-durable-worker.js";

/**
 * A worker's crash while a call of its run hangs, then the run's recovery: the worker stops (the
 * run's workflow never finishes in this process), its advisory locks go as a dead process's
 * connections would (the hung call still holds its session's), and a worker whose watchdog counts
 * the first as dead after a second takes the run over.
 */
export async function crashAndRecover(crashed: DurableWorker, admin: pg.Client, builders: DurableWorkerOptions["builders"], connectionString: string): Promise<DurableWorker> {
  await crashed.stop();
  await admin.query("SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND database = (SELECT oid FROM pg_database WHERE datname = current_database()) AND pid <> pg_backend_pid()");
  return startDurableWorker({ connectionString, executorId: "worker-recovering", concurrency: 1, staleAfterMs: 1_000, builders });
}
