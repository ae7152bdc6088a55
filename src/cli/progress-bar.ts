import { SingleBar } from "cli-progress";

export interface ProgressBar {
  update(done: number): void;
  stop(): void;
}

/**
 * A progress bar with counts and an ETA on stderr — only when stderr is a terminal and the output
 * is not JSON, so pipes, logs and `--json` consumers see nothing of it.
 */
export function createProgressBar(options: { stream: NodeJS.WritableStream & { isTTY?: boolean }; total: number; label: string; enabled: boolean }): ProgressBar {
  if (!options.enabled || options.stream.isTTY !== true || options.total <= 1) return { update() {}, stop() {} };
  const bar = new SingleBar({
    stream: options.stream as NodeJS.WritableStream,
    format: `${options.label} [{bar}] {value}/{total} | {percentage}% | ETA {eta_formatted}`,
    // Not hidden: Ctrl-C ends a benchmark without running cleanup, and a hidden cursor would stay hidden in the user's shell.
    hideCursor: false,
    clearOnComplete: true,
    etaBuffer: 20,
  });
  bar.start(options.total, 0);
  return {
    update: (done) => bar.update(done),
    stop: () => bar.stop(),
  };
}

/** A progress bar whose total is known only as work reports in (per stage: each call may name a new total). */
export interface StagedProgressBar {
  update(done: number, total: number, label: string): void;
  stop(): void;
}

/** Like `createProgressBar`, for work whose total each stage reports; the bar restarts when the label changes. */
export function createStagedProgressBar(options: { stream: NodeJS.WritableStream & { isTTY?: boolean }; enabled: boolean }): StagedProgressBar {
  let current: { bar: ProgressBar; label: string; total: number } | undefined;
  return {
    update(done, total, label) {
      if (current === undefined || current.label !== label || current.total !== total) {
        current?.bar.stop();
        current = { bar: createProgressBar({ ...options, total, label }), label, total };
      }
      current.bar.update(done);
    },
    stop() {
      current?.bar.stop();
      current = undefined;
    },
  };
}
