import type { PostgresSessionStore } from "../session/postgres/postgres-session-store.js";
import type { SessionStore } from "../session/session-store.js";
import type { Tool } from "../types/index.js";
import type { AgentTracing } from "../tracing/agent-tracing.js";
import { ConfigError } from "../types/index.js";
import { createDurableConfirmations } from "./durable-confirmation.js";
import type { DurableAgentBuilder } from "./durable-agent-builder.js";
import { createDurableClock, type DurableRunContext } from "./durable-run-context.js";
import type { DurableRunResult, DurableRunStatus } from "./durable-run-record.js";
import type { DurableTables } from "./durable-tables.js";
import type { SharedBudget } from "./shared-budget.js";
import { createDurableProvider } from "./create-durable-provider.js";
import { createDurableTool } from "./create-durable-tool.js";

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
  /** Calls `cancel` when the run is cancelled (`ctxkit runs cancel`); returns what stops watching. */
  watchCancellation(runId: string, cancel: () => void): () => void;
}

/**
 * The body of the `ctxkit-run` workflow: rebuild the run's agent from its record, wrap its provider
 * and tools as steps, and run it with the one assembly step. Executed again from the top after a
 * crash: completed steps return their recorded results and the session's records are replayed, so
 * the run continues after its last completed model or tool call.
 */
export async function runDurableWorkflow(runId: string, dependencies: DurableWorkflowDependencies): Promise<DurableRunResult> {
  const { tables, sessions, executorId } = dependencies;
  await tables.markStarted(runId, executorId);
  const record = await tables.getRun(runId);
  const builder = dependencies.builders[record.agent.kind];
  if (builder === undefined) throw new ConfigError("option_invalid", `Run ${runId} needs an agent of kind '${record.agent.kind}', which this worker cannot build (it knows ${Object.keys(dependencies.builders).join(", ")}).`);
  const clock = createDurableClock(Date.parse(record.createdAt));
  const context: DurableRunContext = {
    runId,
    executorId,
    step: dependencies.step,
    receive: dependencies.receive,
    inStep: dependencies.inStep,
    now: dependencies.now,
    clock,
    tables,
    ...(record.budgetScope ? { budget: { shared: dependencies.budget, scope: record.budgetScope } } : {}),
  };
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
      return sessions.createOrReplay({ ...options, id: record.sessionId, createdAt: record.createdAt });
    },
  };
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tools of any argument type
  const wrappedTools = new WeakMap<object, Tool<any>>();
  const confirmations = createDurableConfirmations(context);
  const built = await builder(record.agent.input, {
    sessionStore,
    clock: clock.now,
    createId: () => `${runId}-${ids++}`,
    wrapProvider: (provider, maxCallTokens) => createDurableProvider(provider, context, { maxCallTokens }),
    wrapTool: (tool) => {
      const known = wrappedTools.get(tool);
      if (known) return known;
      const wrapped = createDurableTool(tool, context, sequence);
      wrappedTools.set(tool, wrapped);
      return wrapped;
    },
    confirmToolCall: confirmations.confirmToolCall,
    confirmBudget: confirmations.confirmBudget,
  });
  const abort = new AbortController();
  const unwatch = dependencies.watchCancellation(runId, () => abort.abort());
  try {
    const handle = built.agent.run(record.task, { signal: abort.signal });
    if (dependencies.tracing) {
      const traced = dependencies.tracing.traceRun(handle, {
        ...(record.traceparent ? { traceparent: record.traceparent } : {}),
        // The first segment's run span becomes the parent of the segments after a crash.
        onTraceparent: (own) => void (record.attempts <= 1 ? tables.setTraceparent(runId, own).catch(() => undefined) : undefined),
      });
      for await (const event of traced) void event;
    }
    const result = await handle.result();
    const summary: DurableRunResult = {
      stopReason: result.stopReason,
      finalText: result.finalText,
      iterations: result.iterations,
      inputTokens: result.usage.inputTokens,
      outputTokens: result.usage.outputTokens,
      repeatedModelCalls: await tables.repeatedModelCalls(runId),
      ...(result.error ? { error: { code: result.error.code, message: result.error.message } } : {}),
    };
    const status: DurableRunStatus = abort.signal.aborted ? "cancelled" : result.stopReason === "final_answer" ? "completed" : "failed";
    await tables.setStatus(runId, status, { result: summary });
    return summary;
  } finally {
    unwatch();
    await built.close().catch(() => undefined);
  }
}
