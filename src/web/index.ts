export { startViewServer, type ViewServer, type ViewServerOptions } from "./view-server.js";
export { createViewSource, type ViewRun, type ViewSource, type ViewSourceOptions } from "./view-source.js";
export type { CallDetail, PromptView } from "./call-detail.js";
export type { RunSummary, TimelineCall, TimelineLayer } from "./timeline-json.js";
export { isOtlpTraceFile, readOtlpTraceFile, type TraceFileView, type TraceSpanView, type TraceAttributeValue } from "./otlp-trace-file.js";
