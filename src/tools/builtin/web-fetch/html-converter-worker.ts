import { parentPort, threadId } from "node:worker_threads";
import { ToolError } from "../../../types/tool-error.js";
import type { ConverterReply, ConverterRequest } from "./convert-html-in-worker.js";
import { ownThreadCpuClock } from "./thread-cpu-time.js";

// The worker thread of convertHtmlInWorker: loads the page reader, says so (a page's time budget does not
// pay for loading, which costs the same for every page), then converts one page per message. A page over
// its budget ends the whole thread; the next page gets a fresh one.
const { convertHtmlToMarkdown } = await import("./html-to-markdown.js");
const ready: ConverterReply = { ready: true, cpuClock: ownThreadCpuClock() };
parentPort!.postMessage(ready);
parentPort!.on("message", ({ html, pageUrl }: ConverterRequest) => {
  let reply: ConverterReply;
  try {
    reply = { ok: true, page: convertHtmlToMarkdown(html, pageUrl), threadId };
  } catch (error) {
    reply = { ok: false, kind: error instanceof ToolError ? error.kind : "failed", message: error instanceof Error ? error.message : String(error) };
  }
  parentPort!.postMessage(reply);
});
