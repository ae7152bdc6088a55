import { threadId as mainThreadId, type Worker } from "node:worker_threads";
import { ToolError } from "../../../types/tool-error.js";
import type { ToolErrorKind } from "../../../types/tool.js";
import type { PageMarkdown } from "./html-to-markdown.js";
import { startWorker } from "./source-worker.js";
import { nodeErrorCode } from "../../../types/node-error-code.js";
import { judgeConversionTime } from "./judge-conversion-time.js";
import { readThreadCpuMs } from "./thread-cpu-time.js";

export interface ConverterRequest {
  html: string;
  pageUrl: string;
}

export type ConverterReply =
  | { ready: true; cpuClock?: string }
  | { ok: true; page: PageMarkdown; threadId: number }
  | { ok: false; kind: ToolErrorKind; message: string };

/** A converted page, and the thread that converted it (never the caller's: see convertHtmlInWorker). */
export interface ConvertedPage extends PageMarkdown {
  threadId: number;
}

export interface ConvertHtmlOptions {
  /**
   * Time the conversion may take once the page reader is loaded; over it the page is refused. Processor time
   * of the converter thread where it can be read (Linux), with the wall clock capped at six times it;
   * wall-clock time elsewhere.
   */
  budgetMs?: number;
  /** Time the worker may take to start and load the page reader (default 60 s: a loaded machine, or the TypeScript sources). */
  startMs?: number;
  signal?: AbortSignal;
}

/** Enough for a 5 MB page of ordinary HTML on a slow machine; a page built to be slow is refused. */
export const defaultConvertBudgetMs = 10_000;
// A page's DOM, Readability's copies of it and the Markdown: far above any real page, and bounded.
const workerHeapMb = 512;
const converterFile = new URL("./html-converter-worker.js", import.meta.url);

/** A started converter thread, and when its page reader has loaded, with where its processor time is read. */
interface Converter {
  worker: Worker;
  ready: Promise<{ cpuClock?: string }>;
}

// One converter kept between pages (loading the page reader takes ~0.6 s); unref'd, so it never keeps the
// process alive. Pages converted at the same time each get their own; only one is kept afterwards.
let idle: Converter | undefined;

function startConverter(startMs: number): Converter {
  const worker = startWorker(converterFile, { resourceLimits: { maxOldGenerationSizeMb: workerHeapMb }, stdout: true, stderr: true, execArgv: [] });
  worker.unref();
  const ready = new Promise<{ cpuClock?: string }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new ToolError("failed", `The page reader did not start within ${startMs / 1000} s; the page was not converted.`)), startMs);
    worker.once("message", (message: ConverterReply) => {
      clearTimeout(timer);
      resolve({ cpuClock: "ready" in message ? message.cpuClock : undefined });
    });
    worker.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
  // Handled where it is awaited; a converter that fails while idle is simply not reused.
  ready.catch(() => undefined);
  worker.once("exit", () => {
    if (idle?.worker === worker) idle = undefined;
  });
  return { worker, ready };
}

/**
 * Converts an untrusted HTML page on a worker thread with a time budget (issue 24, failure 13). Parsing,
 * hiding, Readability and the Markdown walk are synchronous and their cost is set by the page: on the
 * main thread, a hostile 5 MB page blocked the whole process (timers, aborts, Ctrl-C, other tools) for
 * 13 to 45 s. Here the main thread only posts the text and waits; over budget, or when `signal` aborts,
 * the worker is terminated mid-conversion and the page refused with a tool error.
 */
export async function convertHtmlInWorker(html: string, pageUrl: string, options: ConvertHtmlOptions = {}): Promise<ConvertedPage> {
  const budgetMs = options.budgetMs ?? defaultConvertBudgetMs;
  const startMs = options.startMs ?? 60_000;
  options.signal?.throwIfAborted();
  const converter = idle ?? startConverter(startMs);
  if (idle === converter) idle = undefined;
  const { worker } = converter;
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  let onError: ((error: Error) => void) | undefined;
  let onExit: ((code: number) => void) | undefined;
  let onMessage: ((reply: ConverterReply) => void) | undefined;
  let reuse = false;
  try {
    const reply = await new Promise<Exclude<ConverterReply, { ready: true }>>((resolve, reject) => {
      onAbort = () => reject(options.signal!.reason instanceof Error ? options.signal!.reason : new Error("aborted"));
      options.signal?.addEventListener("abort", onAbort, { once: true });
      onError = (error) =>
        reject(
          nodeErrorCode(error) === "ERR_WORKER_OUT_OF_MEMORY"
            ? new ToolError("failed", `The page needed more than ${workerHeapMb} MB to convert; it looks built to exhaust memory, so it was not converted.`)
            : error,
        );
      onExit = (code) => reject(new Error(`the page converter stopped (exit code ${code}) before it answered`));
      worker.on("error", onError);
      worker.on("exit", onExit);
      converter.ready.then(({ cpuClock }) => {
        onMessage = (message) => {
          if (!("ready" in message)) resolve(message);
        };
        worker.on("message", onMessage);
        const request: ConverterRequest = { html, pageUrl };
        const startedAt = Date.now();
        const cpuAtStart = cpuClock === undefined ? undefined : readThreadCpuMs(cpuClock);
        const cpuUsedMs = () => (cpuAtStart === undefined ? undefined : (readThreadCpuMs(cpuClock!) ?? Number.NaN) - cpuAtStart);
        worker.postMessage(request);
        const check = () => {
          const verdict = judgeConversionTime(budgetMs, Date.now() - startedAt, cpuUsedMs());
          if (verdict.over) reject(new ToolError("failed", verdict.message));
          else timer = setTimeout(check, verdict.checkAgainInMs);
        };
        timer = setTimeout(check, budgetMs);
      }, reject);
    });
    if ("ok" in reply && !reply.ok) {
      reuse = true;
      throw new ToolError(reply.kind, reply.message);
    }
    if (reply.threadId === mainThreadId) throw new Error("the page converter ran on the caller's thread");
    reuse = true;
    return { ...reply.page, threadId: reply.threadId };
  } finally {
    clearTimeout(timer);
    if (onAbort !== undefined) options.signal?.removeEventListener("abort", onAbort);
    if (onError) worker.off("error", onError);
    if (onExit) worker.off("exit", onExit);
    if (onMessage) worker.off("message", onMessage);
    // A conversion still running (over budget, aborted) ends at once; a converter that answered is kept for the next page.
    if (reuse && idle === undefined) idle = converter;
    else void worker.terminate();
  }
}
