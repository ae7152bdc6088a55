import { createLazyRequire } from "../../types/lazy-require.js";
import type { Worker } from "node:worker_threads";
import { ToolError } from "../tool.js";

// node:worker_threads is required by the first search with a regex, not when the tools are created,
// like the other Node modules the tools use; a run's start gains little by it, as Node's fetch loads
// worker_threads at the first request anyway.
const requireFromHere = createLazyRequire(import.meta.url);
const workerThreads = () => requireFromHere("node:worker_threads") as typeof import("node:worker_threads");

/** A matching line, as offsets into the text that was searched. */
export interface LineMatch {
  /** 1-based. */
  lineNumber: number;
  lineStart: number;
  lineEnd: number;
  /** Where the match starts, relative to the line. */
  matchIndex: number;
}

export interface LineMatches {
  /** The first `limit` matching lines. */
  matches: LineMatch[];
  /** Every matching line, shown or not. */
  total: number;
}

// Plain JavaScript evaluated in the worker (a file would need a different path in src and dist).
// Lines split like `text.split(/\r?\n/)`, found with indexOf so only the model's pattern can be slow.
const workerSource = `
const { parentPort, workerData } = require("node:worker_threads");
const pattern = new RegExp(workerData.source, workerData.flags);
parentPort.on("message", ({ text, limit }) => {
  const matches = [];
  let total = 0;
  let lineNumber = 0;
  let start = 0;
  for (;;) {
    const newline = text.indexOf("\\n", start);
    const end = newline === -1 ? text.length : newline;
    const lineEnd = end > start && text.charCodeAt(end - 1) === 13 ? end - 1 : end;
    lineNumber += 1;
    const match = pattern.exec(text.slice(start, lineEnd));
    if (match !== null) {
      total += 1;
      if (matches.length < limit) matches.push({ lineNumber, lineStart: start, lineEnd, matchIndex: match.index });
    }
    if (newline === -1) break;
    start = newline + 1;
  }
  parentPort.postMessage({ matches, total });
});
`;

/**
 * Runs a model-chosen regular expression on a worker thread, so a pattern that backtracks
 * catastrophically (`^(a+)+$` on forty `a`s and a `!`) costs at most the time budget: the worker is
 * terminated, while the main thread stays free to time out, abort and answer Ctrl-C. A JavaScript
 * RegExp on the main thread cannot be interrupted at all.
 */
export class RegexWorker {
  private readonly worker: Worker;
  private readonly deadline: number;

  /** `pattern` must already compile (compile it on the main thread first, for a useful error). */
  constructor(
    pattern: RegExp,
    private readonly budgetMs: number,
    private readonly signal?: AbortSignal,
  ) {
    this.worker = new (workerThreads().Worker)(workerSource, { eval: true, workerData: { source: pattern.source, flags: pattern.flags } });
    this.deadline = Date.now() + budgetMs;
  }

  /** Matching lines of `text`; rejects with a `timeout` ToolError once the whole budget is spent. */
  matchLines(text: string, limit: number, shown: string): Promise<LineMatches> {
    return new Promise<LineMatches>((resolve, reject) => {
      const cleanUp = () => {
        clearTimeout(timer);
        this.worker.off("message", onMessage);
        this.worker.off("error", onError);
        this.signal?.removeEventListener("abort", onAbort);
      };
      const fail = (error: Error) => {
        cleanUp();
        void this.worker.terminate();
        reject(error);
      };
      const onMessage = (result: LineMatches) => {
        cleanUp();
        resolve(result);
      };
      const onError = (error: Error) => fail(new ToolError("failed", `The pattern failed while searching ${shown}: ${error.message}.`));
      const onAbort = () => fail(new ToolError("timeout", "The search was aborted."));
      const timer = setTimeout(
        () =>
          fail(
            new ToolError(
              "timeout",
              `The pattern took longer than ${Math.round(this.budgetMs / 1000)} s (stopped while searching ${shown}); it ` +
                "probably backtracks catastrophically, e.g. nested quantifiers like (a+)+ or (.*)*. Simplify it or " +
                "search a narrower path.",
            ),
          ),
        Math.max(0, this.deadline - Date.now()),
      );
      if (this.signal?.aborted === true) return onAbort();
      this.signal?.addEventListener("abort", onAbort, { once: true });
      this.worker.on("message", onMessage);
      this.worker.on("error", onError);
      this.worker.postMessage({ text, limit });
    });
  }

  async close(): Promise<void> {
    await this.worker.terminate();
  }
}
