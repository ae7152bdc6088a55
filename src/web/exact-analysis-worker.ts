import { readlinkSync } from "node:fs";
import { setPriority } from "node:os";
import { parentPort, workerData } from "node:worker_threads";
import type { ExactAnalysisOptions } from "./exact-analysis-core.js";
import type { ExactAnalysisRequest, ExactAnalysisReply } from "./exact-analysis.js";

// The worker thread of createExactAnalysis: tokenizes with Qwen3 while the main thread serves the page.
// Niced before the tokenizer and analyzer are loaded (a static import would load them first, at full priority).
lowerThisThreadsPriority();
const { createExactAnalysisCore } = await import("./exact-analysis-core.js");
const core = createExactAnalysisCore(workerData as ExactAnalysisOptions);
parentPort!.on("message", (request: ExactAnalysisRequest) => {
  let reply: ExactAnalysisReply;
  try {
    reply =
      request.type === "analyze"
        ? { id: request.id, ok: true, value: core.analyze(request.transcripts) }
        : { id: request.id, ok: true, value: core.render(request.runIndex, request.callIndex, request.reusableTokens) };
  } catch (error) {
    reply = { id: request.id, ok: false, error: (error as Error).message };
  }
  parentPort!.postMessage(reply);
});

/**
 * Linux: nice this thread alone (setpriority on a thread id affects only that thread), so on a
 * busy machine the page's requests and drawing come before the background counting. Best effort
 * elsewhere: the counts are the same, only sooner or later.
 */
function lowerThisThreadsPriority(): void {
  try {
    const threadId = Number(readlinkSync("/proc/thread-self").split("/").at(-1));
    if (Number.isInteger(threadId) && threadId > 0) setPriority(threadId, 10);
  } catch {
    // No /proc (macOS, Windows) or not permitted: run at the normal priority.
  }
}
