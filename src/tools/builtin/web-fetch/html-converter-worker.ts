import { parentPort, threadId, workerData } from "node:worker_threads";
import { ToolError } from "../../../types/tool-error.js";
import { convertHtmlToMarkdown } from "./html-to-markdown.js";
import type { ConverterReply, ConverterRequest } from "./convert-html-in-worker.js";

// The worker thread of convertHtmlInWorker: parses and converts one page, answers once, and is ended.
const { html, pageUrl } = workerData as ConverterRequest;
let reply: ConverterReply;
try {
  reply = { ok: true, page: convertHtmlToMarkdown(html, pageUrl), threadId };
} catch (error) {
  reply = { ok: false, kind: error instanceof ToolError ? error.kind : "failed", message: error instanceof Error ? error.message : String(error) };
}
parentPort!.postMessage(reply);
