import { parentPort, workerData } from "node:worker_threads";
import { createExactAnalysisCore, type ExactAnalysisOptions } from "./exact-analysis-core.js";
import type { ExactAnalysisRequest, ExactAnalysisReply } from "./exact-analysis.js";

// The worker thread of createExactAnalysis: tokenizes with Qwen3 while the main thread serves the page.
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
