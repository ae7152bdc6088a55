export { createAgent, type Agent, type RunOptions } from "./create-agent.js";
export type { RunHandle } from "./run-handle.js";
export type { AgentOptions, AgentRuntime, SessionSink, TailState, ToolCallDecision, ToolCallInfo } from "./agent-options.js";
