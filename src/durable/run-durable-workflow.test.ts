import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createScriptedProvider } from "../providers/scripted/index.js";
import { createSessionStore } from "../session/session-store.js";
import type { PostgresSessionStore } from "../session/postgres/postgres-session-store.js";
import type { DurableRunRecord, DurableRunStatus } from "./durable-run-record.js";
import { assembleDurableParts, type DurableAssembly } from "./durable-agent-builder.js";
import { SessionError } from "../types/index.js";
import { runDurableWorkflow, type DurableWorkflowDependencies } from "./run-durable-workflow.js";

/** What DBOS throws from a step of an execution that no longer owns its workflow, or of a cancelled one. */
function dbosError(name: "DBOSWorkflowConflictError" | "DBOSWorkflowCancelledError"): Error {
  return Object.assign(new Error(`${name} from the engine`), { name });
}

interface FakeEngine {
  /** The run's record as the client left it. */
  status: DurableRunStatus;
  /** What DBOS throws from the run's model call, if anything. */
  refusal?: Error;
  /** How many times opening the run's session finds it held by another execution first. */
  sessionHeld?: number;
}

/** Runs a one-answer run's workflow on fakes of the engine and the run's tables; what it wrote to the run's record. */
async function runOnFakeEngine({ status, refusal, sessionHeld = 0 }: FakeEngine) {
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
      countModelCall: async () => 1,
    },
    sessions: {
      ...jsonl,
      createOrReplay: async (options: Parameters<typeof jsonl.create>[0]) => {
        if (sessionHeld-- > 0) throw new SessionError("session_locked", `Session ${record.sessionId} is open for writing by another process or worker.`);
        return jsonl.create({ ...options, id: undefined });
      },
    } as unknown as PostgresSessionStore,
    budget: { chargeEnded: async () => undefined },
    builders: { scripted: (_input: unknown, assembly: DurableAssembly) => assembleDurableParts({ provider: createScriptedProvider({ turns: [{ text: "hi" }] }), tools: [], system: "Say hi.", maxCallTokens: 1_000 }, assembly) },
    step: async (name: string, work: () => Promise<unknown>) => {
      if (refusal && name.startsWith("model")) throw refusal;
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
    const { outcome, written } = await runOnFakeEngine({ refusal, status: "running" });
    expect(written).toEqual([]);
    expect(outcome).toEqual({ error: refusal });
  });

  it("writes nothing but cancelled to a run cancelled before its watcher saw it (a failed run cannot be resumed)", async () => {
    const { written } = await runOnFakeEngine({ refusal: dbosError("DBOSWorkflowCancelledError"), status: "cancelled" });
    expect(written.filter((write) => write !== "setStatus cancelled")).toEqual([]);
  });

  it("still fails a run whose model call failed for a reason of its own", async () => {
    const { written } = await runOnFakeEngine({ refusal: Object.assign(new Error("connection refused"), { code: "provider_error" }), status: "running" });
    expect(written).toEqual(["failIfRunning"]);
  });
});

describe("a durable run's execution that finds the run's session held", () => {
  it("waits for the other execution to let it go (one cancelled that opened it after resume looked), and completes the run", async () => {
    const { outcome, written } = await runOnFakeEngine({ status: "running", sessionHeld: 2 });
    expect(outcome).toMatchObject({ result: { stopReason: "final_answer", finalText: "hi" } });
    expect(written).toEqual(["setStatus completed"]);
  });
});
