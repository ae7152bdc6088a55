import type pg from "pg";
import { SessionError } from "../types/index.js";
import { sessionLockKeyOf } from "../session/postgres/postgres-connection.js";
import type { DurableAgentSpec, DurableRunRecord, DurableRunResult, DurableRunStatus } from "./durable-run-record.js";

interface RunRow {
  id: string;
  task: string;
  agent: DurableAgentSpec;
  session_id: string;
  budget_scope: string | null;
  status: DurableRunStatus;
  created_at: Date;
  updated_at: Date;
  attempts: number;
  executor: string | null;
  result: DurableRunResult | null;
  paused_call: DurableRunRecord["pausedCall"] | null;
  traceparent: string | null;
}

/** ctxkit's durable-run rows (see durable-schema.ts); every write is one statement or one transaction. */
export function createDurableTables(pool: pg.Pool, schema: string, location: string) {
  const table = (name: string) => `${schema}.${name}`;
  const toRecord = (row: RunRow): DurableRunRecord => ({
    id: row.id,
    task: row.task,
    agent: row.agent,
    sessionId: row.session_id,
    ...(row.budget_scope ? { budgetScope: row.budget_scope } : {}),
    status: row.status,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    attempts: row.attempts,
    ...(row.executor ? { executor: row.executor } : {}),
    ...(row.result ? { result: row.result } : {}),
    ...(row.paused_call ? { pausedCall: row.paused_call } : {}),
    ...(row.traceparent ? { traceparent: row.traceparent } : {}),
  });

  return {
    /** `createdAt` is the submitter's clock: where the run's own clock starts (its first status line, say). */
    async insertRun(run: { id: string; task: string; agent: DurableAgentSpec; sessionId: string; budgetScope?: string; createdAt: Date; traceparent?: string }): Promise<void> {
      await pool.query(`INSERT INTO ${table("ctxkit_runs")} (id, task, agent, session_id, budget_scope, status, created_at, traceparent) VALUES ($1, $2, $3, $4, $5, 'queued', $6, $7)`, [run.id, run.task, JSON.stringify(run.agent), run.sessionId, run.budgetScope ?? null, run.createdAt, run.traceparent ?? null]);
    },
    /** The run span's own traceparent, kept from its first segment: later segments (after a crash) nest under it. */
    async setTraceparent(id: string, traceparent: string): Promise<void> {
      await pool.query(`UPDATE ${table("ctxkit_runs")} SET traceparent = $2 WHERE id = $1`, [id, traceparent]);
    },
    async getRun(id: string): Promise<DurableRunRecord> {
      const row = (await pool.query<RunRow>(`SELECT * FROM ${table("ctxkit_runs")} WHERE id = $1`, [id])).rows[0];
      if (row === undefined) throw new SessionError("session_not_found", unknownRunMessage(id, location));
      return toRecord(row);
    },
    async listRuns(limit: number): Promise<DurableRunRecord[]> {
      return (await pool.query<RunRow>(`SELECT * FROM ${table("ctxkit_runs")} ORDER BY created_at DESC, id LIMIT $1`, [limit])).rows.map(toRecord);
    },
    /** How many runs there are in each status (all of them, not only the newest a list shows). */
    async countRuns(): Promise<Partial<Record<DurableRunStatus, number>>> {
      const rows = (await pool.query<{ status: DurableRunStatus; count: string }>(`SELECT status, count(*) AS count FROM ${table("ctxkit_runs")} GROUP BY status`)).rows;
      return Object.fromEntries(rows.map((row) => [row.status, Number(row.count)]));
    },
    /** Whether a writer holds this session (an execution of its run still going): its lock, tried and let go at once. */
    async sessionInUse(sessionId: string): Promise<boolean> {
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        const [lock] = (await client.query<{ locked: boolean }>("SELECT pg_try_advisory_xact_lock($1::bigint) AS locked", [sessionLockKeyOf(schema, sessionId)])).rows;
        return lock?.locked !== true;
      } finally {
        await client.query("ROLLBACK").catch(() => undefined);
        client.release();
      }
    },
    /** Which of these runs were cancelled. */
    async cancelledAmong(ids: readonly string[]): Promise<string[]> {
      return (await pool.query<{ id: string }>(`SELECT id FROM ${table("ctxkit_runs")} WHERE id = ANY($1::text[]) AND status = 'cancelled'`, [ids])).rows.map((row) => row.id);
    },
    async markStarted(id: string, executor: string): Promise<void> {
      await pool.query(`UPDATE ${table("ctxkit_runs")} SET status = 'running', attempts = attempts + 1, executor = $2, paused_call = NULL, updated_at = now() WHERE id = $1`, [id, executor]);
    },
    async setStatus(id: string, status: DurableRunStatus, extra: { result?: DurableRunResult; pausedCall?: DurableRunRecord["pausedCall"] | null } = {}): Promise<void> {
      await pool.query(
        `UPDATE ${table("ctxkit_runs")} SET status = $2, result = coalesce($3, result), paused_call = $4, updated_at = now() WHERE id = $1`,
        [id, status, extra.result ? JSON.stringify(extra.result) : null, extra.pausedCall ? JSON.stringify(extra.pausedCall) : null],
      );
    },
    /**
     * A run's execution pauses it for a person (`pausedCall`), or goes on after the answer (null): only
     * a live run. A run cancelled just before (its execution had not seen it yet) stays cancelled; a pause
     * written over it was answered into a workflow the engine had stopped, and the run hung.
     */
    async setPaused(id: string, pausedCall: NonNullable<DurableRunRecord["pausedCall"]> | null): Promise<void> {
      await pool.query(
        `UPDATE ${table("ctxkit_runs")} SET status = $3, paused_call = $2, updated_at = now() WHERE id = $1 AND status IN ('running', 'needs_confirmation')`,
        [id, pausedCall ? JSON.stringify(pausedCall) : null, pausedCall ? "needs_confirmation" : "running"],
      );
    },
    /**
     * After a person's answer was sent: the run is running again, unless its worker got there first
     * (and may already have paused on another call, or ended) — only the pause that was answered is cleared.
     */
    async markResumed(id: string, callKey: string): Promise<void> {
      await pool.query(`UPDATE ${table("ctxkit_runs")} SET status = 'running', paused_call = NULL, updated_at = now() WHERE id = $1 AND status = 'needs_confirmation' AND paused_call->>'callKey' = $2`, [id, callKey]);
    },
    /** Fails a run that is still queued or running (not one cancelled, paused or ended meanwhile); true when it did. */
    async failIfRunning(id: string, result: DurableRunResult): Promise<boolean> {
      const updated = await pool.query(`UPDATE ${table("ctxkit_runs")} SET status = 'failed', result = $2, paused_call = NULL, updated_at = now() WHERE id = $1 AND status IN ('queued', 'running')`, [id, JSON.stringify(result)]);
      return updated.rowCount === 1;
    },
    /** Records a side-effecting call as started; false when an earlier attempt already started it (and did not finish). */
    async startToolCall(runId: string, callKey: string, tool: string, executor: string): Promise<"started" | "interrupted" | "finished" | "confirmed"> {
      const inserted = await pool.query(`INSERT INTO ${table("ctxkit_tool_calls")} (run_id, call_key, tool, state, executor) VALUES ($1, $2, $3, 'started', $4) ON CONFLICT DO NOTHING`, [runId, callKey, tool, executor]);
      if (inserted.rowCount === 1) return "started";
      const state = (await pool.query<{ state: string }>(`SELECT state FROM ${table("ctxkit_tool_calls")} WHERE run_id = $1 AND call_key = $2`, [runId, callKey])).rows[0]?.state;
      return state === "finished" ? "finished" : state === "confirmed" ? "confirmed" : "interrupted";
    },
    async finishToolCall(runId: string, callKey: string): Promise<void> {
      await pool.query(`UPDATE ${table("ctxkit_tool_calls")} SET state = 'finished', finished_at = now() WHERE run_id = $1 AND call_key = $2`, [runId, callKey]);
    },
    async confirmToolCall(runId: string, callKey: string, decision: "rerun" | "skip"): Promise<void> {
      await pool.query(`UPDATE ${table("ctxkit_tool_calls")} SET state = $3 WHERE run_id = $1 AND call_key = $2`, [runId, callKey, decision === "rerun" ? "confirmed" : "skipped"]);
    },
    /** Counts an attempt of a model call; returns how many there were (more than 1: a repeat after a crash). */
    async countModelCall(runId: string, callKey: string): Promise<number> {
      const row = (await pool.query<{ attempts: number }>(
        `INSERT INTO ${table("ctxkit_model_calls")} (run_id, call_key, attempts) VALUES ($1, $2, 1) ON CONFLICT (run_id, call_key) DO UPDATE SET attempts = ${table("ctxkit_model_calls")}.attempts + 1 RETURNING attempts`,
        [runId, callKey],
      )).rows[0];
      return row?.attempts ?? 1;
    },
    async repeatedModelCalls(runId: string): Promise<number> {
      const row = (await pool.query<{ repeats: string }>(`SELECT coalesce(sum(attempts - 1), 0) AS repeats FROM ${table("ctxkit_model_calls")} WHERE run_id = $1`, [runId])).rows[0];
      return Number(row?.repeats ?? 0);
    },
    async heartbeat(worker: { executorId: string; host: string; pid: number; concurrency: number; appVersion: string }): Promise<void> {
      await pool.query(
        `INSERT INTO ${table("ctxkit_workers")} (executor_id, host, pid, concurrency, app_version) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (executor_id) DO UPDATE SET heartbeat_at = now(), app_version = $5`,
        [worker.executorId, worker.host, worker.pid, worker.concurrency, worker.appVersion],
      );
    },
    /**
     * Claims the executors of application version `appVersion` (or of no recorded version: workers
     * registered before versions were) silent for longer than `staleMs`: DBOS re-enqueues only
     * workflows of its own version, so a watchdog leaves another version's dead workers to a watchdog
     * of that version. Each claim refreshes the row's heartbeat, so no other watchdog claims it for
     * `staleMs`; the claimer deletes the row once DBOS holds none of its workflows pending
     * (`forgetWorker`). A claimer that dies first leaves the row to go stale again, and another
     * watchdog claims it then: a dead worker's runs are never forgotten.
     */
    async claimStaleExecutors(staleMs: number, appVersion: string): Promise<string[]> {
      const rows = (
        await pool.query<{ executor_id: string }>(
          `UPDATE ${table("ctxkit_workers")} SET heartbeat_at = now() WHERE heartbeat_at < now() - ($1::integer * interval '1 millisecond') AND (app_version = $2 OR app_version IS NULL) RETURNING executor_id`,
          [staleMs, appVersion],
        )
      ).rows;
      return rows.map((row) => row.executor_id);
    },
    /**
     * Deletes a dead executor's row unless DBOS (schema `dbos`) still holds workflows of it pending
     * (another application version's, which this worker's DBOS cannot re-enqueue): the row then goes
     * stale again for a watchdog of that version. True when it was deleted.
     */
    async forgetWorker(executorId: string): Promise<boolean> {
      const deleted = await pool.query(
        `DELETE FROM ${table("ctxkit_workers")} WHERE executor_id = $1
           AND (to_regclass('dbos.workflow_status') IS NULL OR NOT EXISTS (SELECT 1 FROM dbos.workflow_status w WHERE w.executor_id = $1 AND w.status = 'PENDING'))`,
        [executorId],
      );
      return deleted.rowCount === 1;
    },
    /** A stopping worker marks itself stale, so a watchdog re-enqueues the runs it did not finish at once. */
    async retireWorker(executorId: string): Promise<void> {
      await pool.query(`UPDATE ${table("ctxkit_workers")} SET heartbeat_at = to_timestamp(0) WHERE executor_id = $1`, [executorId]);
    },
    table,
  };
}

export type DurableTables = ReturnType<typeof createDurableTables>;

/** A run id the tables do not hold, in the library's words (the CLI's toCliMessage names `ctxkit runs list`). */
export function unknownRunMessage(id: string, location: string): string {
  return `No durable run ${id} in ${location}; a durable client's list() shows the runs it holds.`;
}
