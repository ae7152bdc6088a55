/**
 * Lines read from the terminal or a pipe, handed out one per `next()`: a line that arrives while
 * someone waits goes to them, otherwise it waits in order; after `end()` every reader gets undefined.
 */
export interface LineQueue {
  push(line: string): void;
  end(): void;
  /** The next line; undefined once input ended, or when `signal` aborts first (the line then goes to the next reader). */
  next(signal?: AbortSignal): Promise<string | undefined>;
  /** The lines read but not yet taken, removed from the queue. */
  drain(): string[];
  /** Whether a `next()` is waiting for a line. */
  readonly hasWaiter: boolean;
}

export function createLineQueue(): LineQueue {
  const lines: string[] = [];
  const waiting: Array<(line: string | undefined) => void> = [];
  let ended = false;
  return {
    push(line) {
      const resolve = waiting.shift();
      if (resolve) resolve(line);
      else lines.push(line);
    },
    end() {
      ended = true;
      for (const resolve of waiting.splice(0)) resolve(undefined);
    },
    next(signal) {
      const line = lines.shift();
      if (line !== undefined) return Promise.resolve(line);
      if (ended || signal?.aborted === true) return Promise.resolve(undefined);
      return new Promise((resolve) => {
        const waiter = (next: string | undefined) => {
          signal?.removeEventListener("abort", stopWaiting);
          resolve(next);
        };
        // A reader that stopped waiting leaves the queue: the line typed next is not lost to it.
        const stopWaiting = () => {
          const index = waiting.indexOf(waiter);
          if (index !== -1) waiting.splice(index, 1);
          resolve(undefined);
        };
        signal?.addEventListener("abort", stopWaiting, { once: true });
        waiting.push(waiter);
      });
    },
    drain: () => lines.splice(0),
    get hasWaiter() {
      return waiting.length > 0;
    },
  };
}
