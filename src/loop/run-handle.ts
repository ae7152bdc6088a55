import type { AgentEvent, RunResult } from "../types/index.js";

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
    if (generator) throw new Error("A run can be consumed once: iterate it or call result(), not both in parallel.");
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
      fail?.(new Error("The run was abandoned before it finished (the event loop was exited early)."));
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
