import type { PostgresSessionStore } from "../session/postgres/postgres-session-store.js";
import type { SessionStore } from "../session/session-store.js";
import type { AgentEvent, Tool } from "../types/index.js";
import type { AgentTracing } from "../tracing/agent-tracing.js";
import { ConfigError } from "../types/index.js";
import { createDurableConfirmations } from "./durable-confirmation.js";
import type { DurableAgentBuilder } from "./durable-agent-builder.js";
import { createDurableCallScopes, createDurableClock, type DurableRunContext } from "./durable-run-context.js";
import type { DurableRunResult, DurableRunStatus } from "./durable-run-record.js";
import type { DurableTables } from "./durable-tables.js";
import type { SharedBudget } from "./shared-budget.js";
import { createDurableProvider } from "./create-durable-provider.js";
import { createDurableTool } from "./create-durable-tool.js";
import { createSharedBudgetPolicy } from "./create-shared-budget-policy.js";
import { defaultBudgetThresholds } from "../context/budget/budget-options.js";
import { startLongTimer } from "./start-long-timer.js";
import { freezableSessionWriter } from "./freezable-session-writer.js";
import { openRunSession } from "./open-run-session.js";
import { isOwnershipLost, isWorkflowCancelled } from "./dbos-errors.js";
import { notesReadToolName, notesWriteToolName, type NotesReplay } from "../tools/notes/index.js";

export interface DurableWorkflowDependencies {
  executorId: string;
  tables: DurableTables;
  sessions: PostgresSessionStore;
  budget: SharedBudget;
  builders: Readonly<Record<string, DurableAgentBuilder>>;
  step: DurableRunContext["step"];
  receive: DurableRunContext["receive"];
  inStep: DurableRunContext["inStep"];
  now: DurableRunContext["now"];
  /** Spans for each run segment, nested under the run's stored traceparent (see DurableRunRecord.traceparent). */
  tracing?: Pick<AgentTracing, "traceRun">;
  /**
   * Each event of a run's agent as it happens (its warnings, say); events of a replayed part come
   * again, except a shared budget's `budget_threshold` warnings (made once, by the call that crossed).
   * A callback that throws is reported through `onLog`; it does not fail the run.
   */
  onRunEvent?: (runId: string, event: AgentEvent) => void;
  onLog?: (level: "info" | "warn" | "error", message: string) => void;
  /** Calls `cancel` when the run is cancelled (`ctxkit runs cancel`); returns what stops watching. */
  watchCancellation(runId: string, cancel: () => void): () => void;
}

/**
 * The body of the `ctxkit-run` workflow: rebuild the run's agent from its record, wrap its provider
 * and tools as steps, and run it with the one assembly step. Executed again from the top after a
 * crash: completed steps return their recorded results and the session's records are replayed, so
 * the run continues after its last completed model or tool call.
 */
export async function runDurableWorkflow(runId: string, dependencies: DurableWorkflowDependencies, options: DurableWorkflowOptions = {}): Promise<DurableRunResult> {
  const { tables, executorId } = dependencies;
  await tables.markStarted(runId, executorId);
  try {
    return await runAgentOfRecord(runId, dependencies, options);
  } catch (error) {
    // A cancelled execution, or one another execution took over (a resume right after a cancel):
    // the run's record is the client's and the new execution's, not this one's to fail.
    if (isWorkflowCancelled(error) || isOwnershipLost(error)) throw error;
    // Whatever ended the workflow other than its result (an agent kind this worker lacks, an MCP
    // server that did not start, a replay that diverged, the database): the run is failed, not left
    // `running` forever. Only a running run: a cancelled one stays cancelled.
    const failure = { code: errorCode(error), message: error instanceof Error ? error.message : String(error) };
    await tables.failIfRunning(runId, { stopReason: "error", finalText: "", iterations: 0, inputTokens: 0, outputTokens: 0, repeatedModelCalls: 0, error: failure }).catch(() => undefined);
    await dependencies.budget.chargeEnded(runId).catch(() => undefined);
    throw error;
  }
}

/** What `submit` gives the workflow besides the run's id (stored by DBOS with the workflow's input). */
export interface DurableWorkflowOptions {
  /** The run fails with `run_timeout` this long after a worker first starts it. */
  timeoutMs?: number;
}

/** A run's `run_timeout`, in the library's words (the CLI's toCliMessage names --timeout instead). */
export function runTimeoutMessage(timeoutMs: number): string {
  return `The run did not finish within its timeoutMs of ${timeoutMs} (${timeoutMs / 1000} s) after a worker started it; submit it with a longer timeoutMs.`;
}

/** The code a run's failure is reported with: ctxkit's own, else `worker_error`. */
function errorCode(error: unknown): string {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === "string" && /^[a-z_]{1,64}$/.test(code) ? code : "worker_error";
}

async function runAgentOfRecord(runId: string, dependencies: DurableWorkflowDependencies, options: DurableWorkflowOptions): Promise<DurableRunResult> {
  const { tables, sessions, executorId } = dependencies;
  const record = await tables.getRun(runId);
  const builder = dependencies.builders[record.agent.kind];
  if (builder === undefined) throw new ConfigError("option_invalid", `Run ${runId} needs an agent of kind '${record.agent.kind}', which this worker cannot build (it knows ${Object.keys(dependencies.builders).join(", ")}).`);
  const clock = createDurableClock(Date.parse(record.createdAt));
  // Set when the run is found cancelled (by the watcher, or a step or wait DBOS refused): its session takes no more records.
  let cancelled = false;
  const noticing =
    <Work extends (...args: never[]) => Promise<unknown>>(work: Work): Work =>
    (async (...args: Parameters<Work>) => {
      try {
        return await work(...args);
      } catch (error) {
        // DBOS stops a cancelled run's step at once (with its own error, or an abort), before the watcher
        // sees the cancel: a step that failed asks whether the run was cancelled (the client says so first).
        if (isWorkflowCancelled(error) || (await tables.cancelledAmong([runId]).catch(() => [])).length > 0) cancelled = true;
        throw error;
      }
    }) as Work;
  const context: DurableRunContext = {
    runId,
    executorId,
    step: noticing(dependencies.step),
    receive: noticing(dependencies.receive),
    inStep: dependencies.inStep,
    now: dependencies.now,
    clock,
    tables,
    scopes: createDurableCallScopes(),
    ...(record.budgetScope ? { budget: { shared: dependencies.budget, scope: record.budgetScope, thresholds: defaultBudgetThresholds, crossings: [] } } : {}),
  };
  const budget = context.budget;
  const policies = budget
    ? [
        createSharedBudgetPolicy({
          scope: budget.scope,
          readShare: () =>
            context.step("budget-share", async () => {
              const row = await budget.shared.read(budget.scope);
              return { share: row && row.limitTokens > 0 ? row.spentTokens / row.limitTokens : 0, at: dependencies.now() };
            }),
          now: dependencies.now,
          takeCrossings: () => budget.crossings.splice(0),
        }),
      ]
    : [];
  let toolCalls = 0;
  const sequence = { next: () => toolCalls++ };
  let ids = 0;
  // The run's own session is created once and replayed by later attempts (see createOrReplay); a
  // sub-agent's session is an ordinary new one.
  let mainCreated = false;
  const sessionStore: SessionStore = {
    ...sessions,
    create: (options) => {
      if (mainCreated || options.id !== undefined) return sessions.create(options);
      mainCreated = true;
      return openRunSession(() => sessions.createOrReplay({ ...options, id: record.sessionId, createdAt: record.createdAt })).then((writer) => freezableSessionWriter(writer, () => cancelled));
    },
  };
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tools of any argument type
  const wrappedTools = new WeakMap<object, Tool<any>>();
  const confirmations = createDurableConfirmations(context);
  // The run's own notes: the notes it started with are one step, put back when it is executed again,
  // and its notes tools run again rather than as steps (deterministic given the notes; as steps a
  // replay returned their results without writing the notes, and the next requests' notes line was
  // read from the notes as the crash left them). Set before the first request, so before any tool call.
  let notesReplayed = false;
  const notesReplay: NotesReplay = {
    startingNotes: (current) => {
      notesReplayed = true;
      return context.step("notes-start", current);
    },
    // A fork sub-agent calls the run's notes tools inside its parent's `task` step (see NotesReplay).
    writeRefusal: () =>
      context.scopes.current() !== undefined || context.inStep()
        ? `A sub-agent cannot write the run's notes in a durable run: its calls run inside the parent's call, which is not run again after a crash, so the note would be lost. Put what to note in your answer; the calling agent writes it with ${notesWriteToolName}.`
        : undefined,
  };
  const built = await builder(record.agent.input, {
    sessionStore,
    clock: clock.now,
    policies,
    createId: () => `${runId}-${ids++}`,
    wrapProvider: (provider, maxCallTokens) => createDurableProvider(provider, context, { maxCallTokens }),
    wrapTool: (tool) => {
      if (notesReplayed && (tool.name === notesReadToolName || tool.name === notesWriteToolName)) return tool;
      const known = wrappedTools.get(tool);
      if (known) return known;
      const wrapped = createDurableTool(tool, context, sequence);
      wrappedTools.set(tool, wrapped);
      return wrapped;
    },
    confirmToolCall: confirmations.confirmToolCall,
    confirmBudget: confirmations.confirmBudget,
    notesReplay,
  });
  const abort = new AbortController();
  const unwatch = dependencies.watchCancellation(runId, () => {
    cancelled = true;
    abort.abort();
  });
  // The deadline is recorded once (a step), so a run resumed after a crash keeps its first one.
  let timedOut = false;
  let timer: { clear(): void } | undefined;
  if (options.timeoutMs !== undefined && options.timeoutMs > 0) {
    const timeoutMs = options.timeoutMs;
    const deadline = await dependencies.step("deadline", async () => dependencies.now() + timeoutMs);
    timer = startLongTimer(() => {
      timedOut = true;
      abort.abort();
    }, deadline - dependencies.now());
  }
  try {
    const handle = built.agent.run(record.task, { signal: abort.signal });
    const events = dependencies.tracing
      ? dependencies.tracing.traceRun(handle, {
          ...(record.traceparent ? { traceparent: record.traceparent } : {}),
          // The first segment's run span becomes the parent of the segments after a crash.
          onTraceparent: (own) => void (record.attempts <= 1 ? tables.setTraceparent(runId, own).catch(() => undefined) : undefined),
        })
      : dependencies.onRunEvent
        ? handle
        : undefined;
    if (events) {
      for await (const event of events) {
        // A caller's callback must not fail (and so retry) a durable run.
        try {
          dependencies.onRunEvent?.(runId, event);
        } catch (error) {
          dependencies.onLog?.("warn", `onRunEvent threw on run ${runId}'s ${event.type} event: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
    }
    const result = await handle.result();
    const timeoutError = { code: "run_timeout", message: runTimeoutMessage(options.timeoutMs ?? 0) };
    const error = timedOut ? timeoutError : result.error ? { code: result.error.code, message: result.error.message } : undefined;
    const summary: DurableRunResult = {
      stopReason: timedOut ? "timeout" : result.stopReason,
      finalText: result.finalText,
      iterations: result.iterations,
      inputTokens: result.usage.inputTokens,
      outputTokens: result.usage.outputTokens,
      repeatedModelCalls: await tables.repeatedModelCalls(runId),
      ...(error ? { error } : {}),
    };
    const status: DurableRunStatus = timedOut ? "failed" : abort.signal.aborted ? "cancelled" : result.stopReason === "final_answer" ? "completed" : "failed";
    await tables.setStatus(runId, status, { result: summary });
    // A reservation the run still holds is an interrupted attempt's (a live call settles its own, even
    // aborted): counted as spent. A sub-agent's call still running past the end settles its use on top
    // (counted twice at worst: the budget errs on the side of spend).
    await dependencies.budget.chargeEnded(runId);
    return summary;
  } finally {
    timer?.clear();
    unwatch();
    await built.close().catch(() => undefined);
  }
}
