import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { AnalyzedTranscript, ImportedTranscript, RenderedCallText } from "../inspect/index.js";
import { createExactAnalysisCore, type ExactAnalysisOptions } from "./exact-analysis-core.js";

type ExactAnalysisQuestion =
  | { type: "analyze"; transcripts: readonly ImportedTranscript[] }
  | { type: "render"; runIndex: number; callIndex: number; reusableTokens: number };

export type ExactAnalysisRequest = ExactAnalysisQuestion & { id: number };

export type ExactAnalysisReply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: string };

/** The exact counts computed beside the page: requests are answered in the order they were made. */
export interface ExactAnalysis {
  /** "worker": a worker thread; "inline": this thread, between requests (no compiled worker file, e.g. running from source). */
  readonly mode: "worker" | "inline";
  analyze(transcripts: readonly ImportedTranscript[]): Promise<AnalyzedTranscript[]>;
  render(runIndex: number, callIndex: number, reusableTokens: number): Promise<RenderedCallText | undefined>;
  close(): Promise<void>;
}

const workerFile = fileURLToPath(new URL("./exact-analysis-worker.js", import.meta.url));

/**
 * Exact Qwen3 counting away from the request path: loading the tokenizer and encoding a
 * 500-call, 100k-token run takes seconds, which the page should not wait for. In a worker thread
 * when the compiled worker file is there; otherwise on this thread, each request deferred to a
 * later turn of the event loop.
 */
export function createExactAnalysis(options: ExactAnalysisOptions): ExactAnalysis {
  return existsSync(workerFile) ? createWorkerAnalysis(options) : createInlineAnalysis(options);
}

function createWorkerAnalysis(options: ExactAnalysisOptions): ExactAnalysis {
  const worker = new Worker(workerFile, { workerData: options });
  // The viewer serves until stopped; a library caller that forgets close() must not be kept alive by the worker.
  worker.unref();
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let nextId = 0;
  let failure: Error | undefined;
  const failAll = (error: Error) => {
    failure = error;
    for (const waiter of pending.values()) waiter.reject(error);
    pending.clear();
  };
  worker.on("message", (reply: ExactAnalysisReply) => {
    const waiter = pending.get(reply.id);
    pending.delete(reply.id);
    if (reply.ok) waiter?.resolve(reply.value);
    else waiter?.reject(new Error(reply.error));
  });
  worker.on("error", failAll);
  worker.on("exit", (code) => failAll(new Error(`the exact-count worker stopped (exit code ${code})`)));
  const ask = <T>(request: ExactAnalysisQuestion): Promise<T> => {
    if (failure !== undefined) return Promise.reject(failure);
    const id = nextId++;
    return new Promise<T>((resolve, reject) => {
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      worker.postMessage({ ...request, id });
    });
  };
  return {
    mode: "worker",
    analyze: (transcripts) => ask({ type: "analyze", transcripts }),
    render: (runIndex, callIndex, reusableTokens) => ask({ type: "render", runIndex, callIndex, reusableTokens }),
    close: async () => {
      await worker.terminate();
    },
  };
}

function createInlineAnalysis(options: ExactAnalysisOptions): ExactAnalysis {
  let core: ReturnType<typeof createExactAnalysisCore> | undefined;
  let queue: Promise<unknown> = Promise.resolve();
  const later = <T>(work: () => T): Promise<T> => {
    const result = queue.then(() => new Promise<T>((resolve, reject) => setImmediate(() => {
      try {
        resolve(work());
      } catch (error) {
        reject(error as Error);
      }
    })));
    queue = result.catch(() => undefined);
    return result;
  };
  const coreOf = () => (core ??= createExactAnalysisCore(options));
  return {
    mode: "inline",
    analyze: (transcripts) => later(() => coreOf().analyze(transcripts)),
    render: (runIndex, callIndex, reusableTokens) => later(() => coreOf().render(runIndex, callIndex, reusableTokens)),
    close: async () => undefined,
  };
}
