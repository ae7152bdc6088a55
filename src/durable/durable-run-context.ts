import { AsyncLocalStorage } from "node:async_hooks";
import type { DurableTables } from "./durable-tables.js";
import type { SharedBudget } from "./shared-budget.js";
import type { SharedBudgetCrossing } from "./shared-budget-crossings.js";

/**
 * What the wrapped provider and tools of one run share: the run, DBOS's step runner, the clock that
 * only moves at steps, and ctxkit's tables. The loop and the policies never see any of it.
 */
export interface DurableRunContext {
  runId: string;
  executorId: string;
  /** Runs `work` as one checkpointed step: executed once, its JSON result replayed after a crash. */
  step<Result>(name: string, work: () => Promise<Result>): Promise<Result>;
  /** Waits (durably) for a message sent to this run on `topic`; undefined on timeout. */
  receive<Message>(topic: string, timeoutSeconds: number): Promise<Message | undefined>;
  /** True inside a step (a sub-agent runs inside its `task` call's step): nothing there can wait for a message. */
  inStep(): boolean;
  clock: DurableClock;
  /** The time a step records (ms): the worker's clock, the system's unless it was given one. */
  now(): number;
  tables: DurableTables;
  /**
   * The shared budget the run spends from: its scope, the shares it warns at, and the crossings its
   * model calls found when they settled, which the run's shared-budget policy reports and empties.
   */
  budget?: { shared: SharedBudget; scope: string; thresholds: readonly number[]; crossings: SharedBudgetCrossing[] };
  /** The tool call whose step the code runs in, if any (see DurableCallScopes). */
  scopes: DurableCallScopes;
}

/**
 * Which tool call's step the code runs in. A sub-agent runs inside its `task` call's step, with the
 * parent's (wrapped) provider: its model calls are keyed under that call (`tool-3-call_x/model-0`),
 * so they never take the parent's keys (`model-N`), and the parent's count does not depend on
 * whether the `task` step ran or was replayed after a crash.
 */
export interface DurableCallScopes {
  /** The innermost call's frame: its key, and the next number of each kind of call made inside it. */
  current(): DurableCallFrame | undefined;
  /** Runs `work` inside the call `key` (inside an outer call: `outer/key`); each run starts its counts at 0. */
  within<Result>(key: string, work: () => Promise<Result>): Promise<Result>;
}

export interface DurableCallFrame {
  key: string;
  /** The next number for `kind` inside this call (0, 1, …). */
  next(kind: string): number;
}

export function createDurableCallScopes(): DurableCallScopes {
  const storage = new AsyncLocalStorage<DurableCallFrame>();
  return {
    current: () => storage.getStore(),
    within(key, work) {
      const outer = storage.getStore();
      const counts = new Map<string, number>();
      const frame: DurableCallFrame = {
        key: outer ? `${outer.key}/${key}` : key,
        next(kind) {
          const number = counts.get(kind) ?? 0;
          counts.set(kind, number + 1);
          return number;
        },
      };
      return storage.run(frame, work);
    },
  };
}

/**
 * The run's clock: the time recorded by the last step (the run's creation before any). Timestamps a
 * run writes (status bar, message metadata) are then the same when it is executed again after a
 * crash, so its session is written byte for byte the same.
 */
export interface DurableClock {
  now(): Date;
  advance(atMs: number): void;
}

export function createDurableClock(startMs: number): DurableClock {
  let current = startMs;
  return {
    now: () => new Date(current),
    advance(atMs) {
      if (atMs > current) current = atMs;
    },
  };
}
