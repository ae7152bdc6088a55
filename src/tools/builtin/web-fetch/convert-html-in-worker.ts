import { threadId as mainThreadId } from "node:worker_threads";
import { ToolError } from "../../../types/tool-error.js";
import type { ToolErrorKind } from "../../../types/tool.js";
import type { PageMarkdown } from "./html-to-markdown.js";
import { startWorker } from "./source-worker.js";

export interface ConverterRequest {
  html: string;
  pageUrl: string;
}

export type ConverterReply = { ok: true; page: PageMarkdown; threadId: number } | { ok: false; kind: ToolErrorKind; message: string };

/** A converted page, and the thread that converted it (never the caller's: see convertHtmlInWorker). */
export interface ConvertedPage extends PageMarkdown {
  threadId: number;
}

export interface ConvertHtmlOptions {
  /** Wall-clock time the conversion may take, starting the worker included; over it the page is refused. */
  budgetMs?: number;
  signal?: AbortSignal;
}

/** Enough for a 5 MB page of ordinary HTML on a slow, busy machine; a page built to be slow is refused. */
export const defaultConvertBudgetMs = 10_000;
// A page's DOM, Readability's copies of it and the Markdown: far above any real page, and bounded.
const workerHeapMb = 512;
const converterFile = new URL("./html-converter-worker.js", import.meta.url);

/**
 * Converts an untrusted HTML page on a worker thread with a time budget (issue 24, failure 13). Parsing,
 * hiding, Readability and the Markdown walk are synchronous and their cost is set by the page: on the
 * main thread, a hostile 5 MB page blocked the whole process (timers, aborts, Ctrl-C, other tools) for
 * 13 to 45 s. Here the main thread only posts the text and waits; over budget, or when `signal` aborts,
 * the worker is terminated mid-conversion and the page refused with a tool error.
 */
export async function convertHtmlInWorker(html: string, pageUrl: string, options: ConvertHtmlOptions = {}): Promise<ConvertedPage> {
  const budgetMs = options.budgetMs ?? defaultConvertBudgetMs;
  options.signal?.throwIfAborted();
  const request: ConverterRequest = { html, pageUrl };
  const worker = startWorker(converterFile, { workerData: request, resourceLimits: { maxOldGenerationSizeMb: workerHeapMb }, stderr: true, stdout: true });
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  try {
    const reply = await new Promise<ConverterReply>((resolve, reject) => {
      worker.once("message", resolve);
      worker.once("error", (error) =>
        reject(
          (error as NodeJS.ErrnoException).code === "ERR_WORKER_OUT_OF_MEMORY"
            ? new ToolError("failed", `The page needed more than ${workerHeapMb} MB to convert; it looks built to exhaust memory, so it was not converted.`)
            : error,
        ),
      );
      worker.once("exit", (code) => reject(new Error(`the page converter stopped (exit code ${code}) before it answered`)));
      timer = setTimeout(
        () =>
          reject(
            new ToolError(
              "failed",
              `Converting the page took longer than ${budgetMs / 1000} s, which real pages do not; it looks built to stall the reader, so it was not converted.`,
            ),
          ),
        budgetMs,
      );
      onAbort = () => reject(options.signal!.reason instanceof Error ? options.signal!.reason : new Error("aborted"));
      options.signal?.addEventListener("abort", onAbort, { once: true });
    });
    if (!reply.ok) throw new ToolError(reply.kind, reply.message);
    if (reply.threadId === mainThreadId) throw new Error("the page converter ran on the caller's thread");
    return { ...reply.page, threadId: reply.threadId };
  } finally {
    clearTimeout(timer);
    if (onAbort !== undefined) options.signal?.removeEventListener("abort", onAbort);
    // Ends a conversion still running (over budget, aborted) at once; a finished worker just exits.
    void worker.terminate();
  }
}
