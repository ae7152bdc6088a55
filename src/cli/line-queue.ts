/**
 * Lines read from the terminal or a pipe, handed out one per `next()`: a line that arrives while
 * someone waits goes to them, otherwise it waits in order; after `end()` every reader gets undefined.
 */
export interface LineQueue {
  push(line: string): void;
  end(): void;
  next(): Promise<string | undefined>;
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
    next() {
      const line = lines.shift();
      if (line !== undefined) return Promise.resolve(line);
      if (ended) return Promise.resolve(undefined);
      return new Promise((resolve) => waiting.push(resolve));
    },
    drain: () => lines.splice(0),
    get hasWaiter() {
      return waiting.length > 0;
    },
  };
}
