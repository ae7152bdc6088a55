import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createScriptedProvider } from "../providers/scripted/index.js";
import { createSessionStore } from "../session/session-store.js";
import type { PostgresSessionStore } from "../session/postgres/postgres-session-store.js";
import type { DurableRunRecord, DurableRunStatus } from "./durable-run-record.js";
import { assembleDurableParts } from "./durable-agent-builder.js";
import { runDurableWorkflow, type DurableWorkflowDependencies } from "./run-durable-workflow.js";

/** What DBOS throws from a step of an execution that no longer owns its workflow, or of a cancelled one. */
function dbosError(name: "DBOSWorkflowConflictError" | "DBOSWorkflowCancelledError"): Error {
  return Object.assign(new Error(`${name} from the engine`), { name });
}

/**
 * A run whose model call DBOS refuses (the loop turns a failed model call into the run's error, so the
 * workflow itself ends normally); the run's record as the client left it (`status`).
 */
async function runRefusedByEngine(refusal: Error, status: DurableRunStatus) {
  const written: string[] = [];
  const record = { id: "run-1", task: "say hi", agent: { kind: "scripted", input: {} }, sessionId: "s-run-1", status, createdAt: new Date(0).toISOString(), attempts: 1 } as unknown as DurableRunRecord;
  const jsonl = createSessionStore({ directory: await mkdtemp(join(tmpdir(), "ctxkit-durable-")) });
  const dependencies = {
    executorId: "worker-1",
    tables: {
      markStarted: async () => undefined,
      getRun: async () => record,
      setStatus: async (_id: string, next: DurableRunStatus) => void written.push(`setStatus ${next}`),
      failIfRunning: async () => (written.push("failIfRunning"), true),
      cancelledAmong: async () => (status === "cancelled" ? [record.id] : []),
      repeatedModelCalls: async () => 0,
    },
    sessions: { ...jsonl, createOrReplay: (options: Parameters<typeof jsonl.create>[0]) => jsonl.create({ ...options, id: undefined }) } as unknown as PostgresSessionStore,
    budget: { chargeEnded: async () => undefined },
    builders: { scripted: (_input, assembly) => assembleDurableParts({ provider: createScriptedProvider({ turns: [{ text: "hi" }] }), tools: [], system: "Say hi.", maxCallTokens: 1_000 }, assembly) },
    step: async (name: string, work: () => Promise<unknown>) => {
      if (name.startsWith("model")) throw refusal;
      return work();
    },
    receive: async () => undefined,
    inStep: () => false,
    now: () => 0,
    watchCancellation: () => () => undefined,
  } as unknown as DurableWorkflowDependencies;
  const outcome = await runDurableWorkflow(record.id, dependencies).then(
    (result) => ({ result }),
    (error: unknown) => ({ error }),
  );
  return { outcome, written };
}

describe("a durable run's execution the engine refused", () => {
  it("writes nothing to the run's record when another execution took the run over (it would fail the run that one runs)", async () => {
    const refusal = dbosError("DBOSWorkflowConflictError");
    const { outcome, written } = await runRefusedByEngine(refusal, "running");
    expect(written).toEqual([]);
    expect(outcome).toEqual({ error: refusal });
  });

  it("writes nothing but cancelled to a run cancelled before its watcher saw it (a failed run cannot be resumed)", async () => {
    const { written } = await runRefusedByEngine(dbosError("DBOSWorkflowCancelledError"), "cancelled");
    expect(written.filter((write) => write !== "setStatus cancelled")).toEqual([]);
  });

  it("still fails a run whose model call failed for a reason of its own", async () => {
    const { written } = await runRefusedByEngine(Object.assign(new Error("connection refused"), { code: "provider_error" }), "running");
    expect(written).toEqual(["failIfRunning"]);
  });
});
