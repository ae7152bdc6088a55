import { randomBytes } from "node:crypto";
import { createSessionId } from "../session/session-id.js";
import { ConfigError, SessionError } from "../types/index.js";
import type { DurableAgentSpec, DurableRunRecord, DurableRunStatus } from "./durable-run-record.js";
import { DURABLE_APP_VERSION, DURABLE_QUEUE, DURABLE_WORKFLOW, openDurableDatabase } from "./durable-database.js";
import { loadDbos } from "./load-dbos.js";
import { isTraceparent } from "./traceparent.js";
import { abortableSleep } from "../loop/abortable-sleep.js";
import { withIdleTransactionTimeout } from "./with-idle-transaction-timeout.js";
import type { DurableWorkflowOptions } from "./run-durable-workflow.js";

export interface SubmitRunOptions {
  task: string;
  agent: DurableAgentSpec;
  /** Spend from this shared budget (define it with `defineBudget` first). */
  budgetScope?: string;
  /** The run fails with `run_timeout` this long after a worker first starts it (its agent is aborted then). */
  timeoutMs?: number;
  /** The submitter's W3C traceparent: a tracing worker nests the run's spans under it (one trace across processes). */
  traceparent?: string;
}

export interface ResumeRunOptions {
  /** Stops waiting for a cancelled run's execution to let its session go: resume rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Called once when resume has to wait for that execution (a person may want to know why nothing happens). */
  onWaiting?: (run: DurableRunRecord, waitMs: number) => void;
}

export interface DurableClient {
  submit(options: SubmitRunOptions): Promise<DurableRunRecord>;
  get(id: string): Promise<DurableRunRecord>;
  /** The newest runs, newest first (50 by default). */
  list(limit?: number): Promise<DurableRunRecord[]>;
  /** How many runs there are in each status, all of them (a list shows only the newest). */
  countRuns(): Promise<Partial<Record<DurableRunStatus, number>>>;
  cancel(id: string): Promise<DurableRunRecord>;
  /**
   * A cancelled run starts again from its last step; a paused one gets the person's answer for its
   * interrupted call. A cancelled run's execution may still hold its session for a few seconds: resume
   * waits for it (up to 20 s; `onWaiting` says so once, `signal` gives up).
   */
  resume(id: string, decision?: "rerun" | "skip", options?: ResumeRunOptions): Promise<DurableRunRecord>;
  /** Polls until the run completes, fails, is cancelled or waits for a person; bounded by `timeoutMs`. */
  wait(id: string, timeoutMs: number): Promise<DurableRunRecord>;
  defineBudget(scope: string, limitTokens: number, maxCallTokens: number): Promise<void>;
  readBudget(scope: string): ReturnType<Awaited<ReturnType<typeof openDurableDatabase>>["budget"]["read"]>;
  close(): Promise<void>;
}

/** A run whose workflow DBOS ended without a result, in the library's words (the CLI's toCliMessage names `ctxkit runs resume`). */
export function workflowEndedMessage(id: string, engine: string): string {
  return `The durable engine ended the run's workflow (${engine}) without it recording a result; see the workers' logs, then call resume("${id}") on a durable client if it was cancelled.`;
}

/** A cancelled run whose execution still holds its session, in the library's words (the CLI's toCliMessage names `ctxkit runs resume`). */
export function cancelledNotStoppedMessage(id: string, sessionId: string): string {
  return `Run ${id} was cancelled, but its execution has not stopped yet (it still holds session ${sessionId}); call resume("${id}") on a durable client again in a few seconds.`;
}

/** How long resuming a cancelled run waits for its cancelled execution to stop (the engine looks every 10 s). */
const cancelledStopWaitMs = 20_000;

const settled = new Set(["completed", "failed", "cancelled", "needs_confirmation"]);
/** DBOS workflow statuses after which the workflow runs no more (without a resume). */
const engineEnded = new Set(["SUCCESS", "ERROR", "CANCELLED", "MAX_RECOVERY_ATTEMPTS_EXCEEDED"]);

/** Submits and manages durable runs from any process (no worker needed): ctxkit's rows plus a DBOS client. */
export async function openDurableClient(connectionString: string): Promise<DurableClient> {
  const database = await openDurableDatabase(connectionString, 4);
  const { DBOSClient, migrateSystemDatabase } = await loadDbos();
  // DBOS's own tables (schema dbos), created here when missing: submitting may come before any worker
  // started. Silently: stdout is the command's (`submit --json` prints only the run).
  const found = await database.pool.query<{ found: string | null }>("SELECT to_regclass('dbos.workflow_status') AS found");
  if (!found.rows[0]?.found) await migrateSystemDatabase(connectionString);
  const dbos = await DBOSClient.create({ systemDatabaseUrl: withIdleTransactionTimeout(connectionString), systemDatabasePoolSize: 4, logger: { info: () => undefined, debug: () => undefined, warn: () => undefined, error: () => undefined } });
  const { tables } = database;
  /**
   * A run cancelled while it waited for a person stops only when the engine next looks (up to 10 s),
   * and only while it is still cancelled: resumed before that, the old execution waited on beside
   * the new one, holding the run's session, and the new one failed with session_locked.
   */
  const untilStopped = async (run: DurableRunRecord, options: ResumeRunOptions) => {
    const signal = options.signal ?? new AbortController().signal;
    const deadline = Date.now() + cancelledStopWaitMs;
    for (let waited = false; await tables.sessionInUse(run.sessionId); waited = true) {
      signal.throwIfAborted();
      if (Date.now() >= deadline) throw new SessionError("session_locked", cancelledNotStoppedMessage(run.id, run.sessionId));
      if (!waited) options.onWaiting?.(run, cancelledStopWaitMs);
      await abortableSleep(250, signal);
    }
    signal.throwIfAborted();
  };
  return {
    async submit(options) {
      if (options.task.trim() === "") throw new ConfigError("usage_invalid", "A durable run needs a task: pass submit({ task }) a task that is not empty.");
      if (options.traceparent !== undefined && !isTraceparent(options.traceparent)) {
        throw new ConfigError("option_invalid", `traceparent must be a W3C traceparent (00-<32 hex trace id>-<16 hex span id>-<2 hex flags>), got '${options.traceparent.slice(0, 80)}'.`);
      }
      const id = `run-${Date.now().toString(36)}-${randomBytes(4).toString("hex")}`;
      const createdAt = new Date();
      await tables.insertRun({ id, task: options.task, agent: options.agent, sessionId: createSessionId(createdAt.toISOString()), createdAt, ...(options.traceparent ? { traceparent: options.traceparent } : {}), ...(options.budgetScope ? { budgetScope: options.budgetScope } : {}) });
      // The timeout is ctxkit's (the workflow aborts its agent and records `run_timeout`), not DBOS's
      // workflowTimeoutMS, which would stop the workflow without a word to the run's record.
      const workflowOptions: DurableWorkflowOptions = options.timeoutMs ? { timeoutMs: options.timeoutMs } : {};
      await dbos.enqueue({ queueName: DURABLE_QUEUE, workflowName: DURABLE_WORKFLOW, workflowID: id, appVersion: DURABLE_APP_VERSION }, id, workflowOptions);
      return tables.getRun(id);
    },
    get: (id) => tables.getRun(id),
    list: (limit = 50) => tables.listRuns(limit),
    countRuns: () => tables.countRuns(),
    async cancel(id) {
      const run = await tables.getRun(id);
      if (run.status === "completed" || run.status === "failed") return run;
      await tables.setStatus(id, "cancelled");
      await dbos.cancelWorkflow(id);
      await database.budget.chargeEnded(id);
      return tables.getRun(id);
    },
    async resume(id, decision, options = {}) {
      const run = await tables.getRun(id);
      if (run.status === "needs_confirmation") {
        if (decision === undefined) throw new SessionError("session_write_refused", `Run ${id} is paused on a ${run.pausedCall?.tool ?? "tool"} call that needs a person's answer; pass resume a decision: "rerun" runs it, "skip" tells the model it was not run.`);
        // One answer per question: two resumes that both read this pause (two people, a retried
        // command) send one message. A second one would wait in the topic and answer the run's next
        // question unasked — a side effect nobody approved.
        await dbos.send(id, decision, "confirmation", `ctxkit-answer-${id}-${run.pausedCall?.callKey ?? "call"}`);
        if (run.pausedCall) await tables.markResumed(id, run.pausedCall.callKey);
      } else if (run.status === "cancelled") {
        await untilStopped(run, options);
        await tables.setStatus(id, "queued");
        await dbos.resumeWorkflow(id);
      } else {
        // A retried answer (the first one's command died after sending it) finds the run gone on: say so.
        const answered = decision !== undefined && (run.status === "running" || run.status === "queued") ? " It waits for no answer now: an earlier answer was taken (a resume that did not finish, another person's), or a worker is taking the run over and asks again shortly; see its status." : "";
        throw new SessionError("session_write_refused", `Run ${id} is ${run.status}; only a cancelled or paused (needs_confirmation) run can be resumed.${answered}`);
      }
      return tables.getRun(id);
    },
    async wait(id, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      for (let polls = 0; ; polls++) {
        const run = await tables.getRun(id);
        if (settled.has(run.status) || Date.now() >= deadline) return run;
        // Every second, DBOS's own view too: a workflow it ended (cancelled from elsewhere, out of
        // recovery attempts) while ctxkit's record still says running would otherwise be waited on forever.
        if (polls % 4 === 3) {
          const engine = (await dbos.retrieveWorkflow(id).getStatus())?.status;
          if (engine !== undefined && engineEnded.has(engine)) {
            const message = workflowEndedMessage(id, engine);
            if (await tables.failIfRunning(id, { stopReason: "error", finalText: "", iterations: 0, inputTokens: 0, outputTokens: 0, repeatedModelCalls: 0, error: { code: "workflow_ended", message } })) {
              await database.budget.chargeEnded(id);
              return tables.getRun(id);
            }
          }
        }
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    },
    defineBudget: (scope, limitTokens, maxCallTokens) => database.budget.define(scope, limitTokens, maxCallTokens),
    readBudget: (scope) => database.budget.read(scope),
    async close() {
      await dbos.destroy();
      await database.close();
    },
  };
}
