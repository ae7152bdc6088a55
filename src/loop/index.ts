export { createAgent, type Agent, type RunOptions } from "./create-agent.js";
export type { RunHandle } from "./run-handle.js";
export type { AgentHooks, AgentOptions, SessionSink, TailState, ToolCallDecision, ToolCallInfo } from "./agent-options.js";
