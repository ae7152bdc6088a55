/**
 * Attribute names of the OpenTelemetry GenAI semantic conventions (open-telemetry/semantic-conventions,
 * docs/gen-ai/gen-ai-spans.md and gen-ai-agent-spans.md), spelled out here so the library needs only
 * `@opentelemetry/api`. `ctxkit.*` are ctxkit's own: what it knows about the context of each call.
 */
export const genAi = {
  operationName: "gen_ai.operation.name",
  providerName: "gen_ai.provider.name",
  agentName: "gen_ai.agent.name",
  agentId: "gen_ai.agent.id",
  conversationId: "gen_ai.conversation.id",
  requestModel: "gen_ai.request.model",
  responseModel: "gen_ai.response.model",
  requestMaxTokens: "gen_ai.request.max_tokens",
  requestTemperature: "gen_ai.request.temperature",
  responseFinishReasons: "gen_ai.response.finish_reasons",
  responseId: "gen_ai.response.id",
  systemInstructions: "gen_ai.system_instructions",
  serverAddress: "server.address",
  serverPort: "server.port",
  responseTimeToFirstChunk: "gen_ai.response.time_to_first_chunk",
  usageInputTokens: "gen_ai.usage.input_tokens",
  usageOutputTokens: "gen_ai.usage.output_tokens",
  usageCacheReadInputTokens: "gen_ai.usage.cache_read.input_tokens",
  usageCacheCreationInputTokens: "gen_ai.usage.cache_creation.input_tokens",
  usageReasoningOutputTokens: "gen_ai.usage.reasoning.output_tokens",
  toolName: "gen_ai.tool.name",
  toolCallId: "gen_ai.tool.call.id",
  toolType: "gen_ai.tool.type",
  toolCallArguments: "gen_ai.tool.call.arguments",
  toolCallResult: "gen_ai.tool.call.result",
  inputMessages: "gen_ai.input.messages",
  outputMessages: "gen_ai.output.messages",
  errorType: "error.type",
} as const;

export const ctxkitAttributes = {
  reusablePrefixTokens: "ctxkit.prefix.reusable_tokens",
  cacheBreak: "ctxkit.cache_break",
  cacheBreakDeclared: "ctxkit.cache_break.declared",
  cacheBreakLayer: "ctxkit.cache_break.layer",
  cacheBreakFirstDivergentToken: "ctxkit.cache_break.first_divergent_token",
  cacheBreakLostTokens: "ctxkit.cache_break.lost_tokens",
  cacheBreakReason: "ctxkit.cache_break.reason",
  compaction: "ctxkit.policy.compaction",
  clearing: "ctxkit.policy.clearing",
  edits: "ctxkit.policy.edits",
  statusBarMode: "ctxkit.policy.status_bar_mode",
  costUsd: "ctxkit.cost.usd",
  turn: "ctxkit.turn",
  stopReason: "ctxkit.stop_reason",
  iterations: "ctxkit.iterations",
  toolConfirmation: "ctxkit.tool.confirmation",
  toolDurationMs: "ctxkit.tool.duration_ms",
  toolCapped: "ctxkit.tool.capped",
  toolSpilled: "ctxkit.tool.spilled",
  subAgentSessionId: "ctxkit.sub_agent.session_id",
} as const;

/** The env switch the conventions name for recording message contents (off by default: they may hold secrets). */
export const captureContentVariable = "OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT";
