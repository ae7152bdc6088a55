import { UsageError, type AgentEvent, type RunResult } from "../types/index.js";

/**
 * What `agent.run()` returns: iterate it for streaming events, or await `result()` for the outcome.
 * The run starts when either begins; it can be consumed once.
 */
export interface RunHandle extends AsyncIterable<AgentEvent> {
  result(): Promise<RunResult>;
}

export function createRunHandle(start: () => AsyncGenerator<AgentEvent, RunResult>): RunHandle {
  let generator: AsyncGenerator<AgentEvent, RunResult> | undefined;
  let settle: ((result: RunResult) => void) | undefined;
  let fail: ((error: unknown) => void) | undefined;
  const outcome = new Promise<RunResult>((resolve, reject) => {
    settle = resolve;
    fail = reject;
  });
  // Callers who only iterate never await the outcome; keep a rejection from becoming unhandled.
  outcome.catch(() => undefined);

  async function* iterate(): AsyncGenerator<AgentEvent> {
    if (generator) throw new UsageError("run_consumed", "A run can be consumed once: iterate it with for await, or await result(), not both in parallel. Call agent.run() again for a new run.");
    generator = start();
    let finished = false;
    try {
      while (true) {
        const step = await generator.next();
        if (step.done) {
          finished = true;
          settle?.(step.value);
          return;
        }
        yield step.value;
      }
    } catch (error) {
      finished = true;
      fail?.(error);
      throw error;
    } finally {
      // The consumer stopped early (break out of for-await): the run is over without a result.
      fail?.(new UsageError("run_abandoned", "The run was abandoned before it finished (the for-await loop was exited early); result() has no outcome. Iterate to the end, or abort with a signal to get a result."));
      // Close the run too, so its cleanup runs (the agent accepts a new run, open calls get results).
      if (!finished) await generator.return(undefined as never);
    }
  }

  let iterator: AsyncGenerator<AgentEvent> | undefined;
  return {
    [Symbol.asyncIterator]() {
      iterator ??= iterate();
      return iterator;
    },
    async result() {
      if (!iterator) {
        iterator = iterate();
        for await (const _event of iterator) {
          // draining: the caller asked for the outcome only
        }
      }
      return outcome;
    },
  };
}
