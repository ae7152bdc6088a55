export { createAgentTracing, traceAgentRun, type AgentTracing, type AgentTracingOptions, type TraceRunOptions } from "./agent-tracing.js";
export { genAi, ctxkitAttributes, captureContentVariable } from "./gen-ai-attributes.js";
