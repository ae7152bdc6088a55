import { createDurableCallScopes, createDurableClock, type DurableRunContext } from "../durable-run-context.js";

type Step = <Result>(name: string, work: () => Promise<Result>) => Promise<Result>;

/**
 * A run's durable context for unit tests, with no database: steps run their work at once, the
 * worker's time stands at 0 and the run's clock starts there. Tests override what they look at
 * (`step`, `now`, `clock`, `tables`, `budget`, …).
 */
export function durableTestContext(overrides: Record<string, unknown> = {}): DurableRunContext {
  const step: Step = (_name, work) => work();
  return {
    runId: "run-1",
    executorId: "worker-1",
    step,
    receive: async () => undefined,
    inStep: () => false,
    now: () => 0,
    clock: createDurableClock(0),
    scopes: createDurableCallScopes(),
    ...overrides,
  } as unknown as DurableRunContext;
}

export interface RecordingStepOptions {
  /** How a replay finds a step's result: by its place and name, as DBOS does (default), or by its name alone. */
  keyBy?: "order-and-name" | "name";
  /** Waits this long after the work before the result is recorded, as DBOS writes its row after the step. */
  checkpointDelayMs?: number;
}

/**
 * Steps that record their results in `recorded`; in a replaying attempt a recorded step returns its
 * result (a copy) without running its work, as a recovered workflow's steps do.
 */
export function recordingStep(recorded: Map<string, unknown>, replay: boolean, options: RecordingStepOptions = {}): Step {
  let steps = 0;
  return async <Result>(name: string, work: () => Promise<Result>): Promise<Result> => {
    const key = options.keyBy === "name" ? name : `${steps++}:${name}`;
    if (replay && recorded.has(key)) return structuredClone(recorded.get(key)) as Result;
    const result = await work();
    if (options.checkpointDelayMs !== undefined) await new Promise((resolve) => setTimeout(resolve, options.checkpointDelayMs));
    recorded.set(key, structuredClone(result));
    return result;
  };
}
