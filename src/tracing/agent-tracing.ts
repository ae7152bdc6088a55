import { context as otelContext, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span, type Tracer } from "@opentelemetry/api";
import { derivedOf, textOf, toolCallsOf, type AgentEvent, type Usage } from "../types/index.js";
import { captureContentVariable, ctxkitAttributes as ck, genAi } from "./gen-ai-attributes.js";

export interface AgentTracingOptions {
  /** Where spans go: `trace.getTracer("ctxkit")` of a registered SDK, or a provider's own tracer. */
  tracer: Tracer;
  /**
   * Record message contents (the task, answers, tool arguments and results). Off unless this is true
   * or `OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true`, as the conventions say: they may hold secrets.
   */
  captureMessageContent?: boolean;
  /** The cost of one call in US dollars (`ctxkit.cost.usd`), when the caller knows the prices. */
  costOf?: (usage: Usage, model: string) => number | undefined;
  /** `gen_ai.provider.name` for a ctxkit provider name (default: the conventions' name where one is known). */
  providerName?: (provider: string) => string;
}

export interface TraceRunOptions {
  /** `gen_ai.agent.name` (default "ctxkit"). */
  agent?: string;
  /** The span the run nests under (default: the active context). */
  parent?: Context;
}

export interface AgentTracing {
  /**
   * Passes the run's events through unchanged, turning them into spans on the way. When the tracer
   * does not record (no SDK registered, or sampled out), it hands back `events` itself: tracing off costs nothing per event.
   */
  traceRun(events: AsyncIterable<AgentEvent>, options?: TraceRunOptions): AsyncIterable<AgentEvent>;
  /** For `createTaskTool({ observeChildRun })`: a child's run nests under the parent's `execute_tool task` span. */
  observeChildRun(events: AsyncIterable<AgentEvent>, child: { agent: string; parentToolCallId: string }): AsyncIterable<AgentEvent>;
}

/**
 * GenAI spans from a run's event stream: `invoke_agent` per run, `chat <model>` per call,
 * `execute_tool <tool>` per tool call, each child run under its `task` call. Spans are built from
 * events only, so tracing never changes what the loop does; without an SDK the API is a no-op.
 */
export function createAgentTracing(options: AgentTracingOptions, env: Readonly<Record<string, string | undefined>> = process.env): AgentTracing {
  const capture = options.captureMessageContent ?? env[captureContentVariable]?.toLowerCase() === "true";
  // The `execute_tool` span of each running tool call, so a child run started by it can nest under it.
  const toolContexts = new Map<string, Context>();
  const tracing: AgentTracing = {
    traceRun: (events, runOptions = {}) => traceRun(events, { ...options, capture, toolContexts, agent: runOptions.agent ?? "ctxkit", parent: runOptions.parent ?? otelContext.active() }),
    observeChildRun: (events, child) => tracing.traceRun(events, { agent: child.agent, parent: toolContexts.get(child.parentToolCallId) ?? otelContext.active() }),
  };
  return tracing;
}

/** One-off form of `createAgentTracing(options).traceRun(events)`, for a run without sub-agents. */
export function traceAgentRun(events: AsyncIterable<AgentEvent>, options: AgentTracingOptions & TraceRunOptions): AsyncIterable<AgentEvent> {
  return createAgentTracing(options).traceRun(events, options);
}

interface RunTraceSettings extends AgentTracingOptions {
  capture: boolean;
  toolContexts: Map<string, Context>;
  agent: string;
  parent: Context;
}

interface CallState {
  span?: Span;
  sentAt?: number;
  firstChunkSeen: boolean;
  model?: string;
  edits: string[];
  attributes: Attributes;
}

// ctxkit names an OpenAI-compatible server `openai-compatible:<vendor>`; the conventions name the vendor.
const knownProviders: Record<string, string> = { anthropic: "anthropic", openai: "openai", "openai-responses": "openai", deepseek: "deepseek", "x-ai": "x_ai", xai: "x_ai", mistral: "mistral_ai", groq: "groq" };

function conventionProviderName(name: string): string {
  const vendor = name.includes(":") ? name.slice(name.indexOf(":") + 1) : name;
  return knownProviders[vendor] ?? knownProviders[name] ?? vendor;
}
const chunkEvents = new Set<AgentEvent["type"]>(["text_start", "text_delta", "thinking_start", "thinking_delta", "tool_call_start", "tool_call_delta"]);

function traceRun(events: AsyncIterable<AgentEvent>, settings: RunTraceSettings): AsyncIterable<AgentEvent> {
  const runSpan = settings.tracer.startSpan(`invoke_agent ${settings.agent}`, {
    kind: SpanKind.INTERNAL,
    attributes: { [genAi.operationName]: "invoke_agent", [genAi.agentName]: settings.agent },
  }, settings.parent);
  if (!runSpan.isRecording()) {
    runSpan.end();
    return events;
  }
  return traceEvents(events, runSpan, settings);
}

async function* traceEvents(events: AsyncIterable<AgentEvent>, runSpan: Span, settings: RunTraceSettings): AsyncGenerator<AgentEvent, void> {
  const { tracer, capture } = settings;
  const runContext = trace.setSpan(settings.parent, runSpan);
  let call: CallState = { firstChunkSeen: false, edits: [], attributes: {} };
  const tools = new Map<string, Span>();
  const providerName = (name: string) => settings.providerName?.(name) ?? conventionProviderName(name);

  const startRun = (event: Extract<AgentEvent, { type: "run_start" }>) => {
    runSpan.setAttributes({
      [genAi.agentId]: event.runId,
      ...(event.sessionId ? { [genAi.conversationId]: event.sessionId } : {}),
      ...(capture ? { [genAi.inputMessages]: JSON.stringify([{ role: "user", parts: [{ type: "text", content: event.input }] }]) } : {}),
    });
  };

  const endCall = (error?: string) => {
    if (!call.span) return;
    if (error) call.span.setStatus({ code: SpanStatusCode.ERROR, message: error }).setAttribute(genAi.errorType, error);
    call.span.end();
    call = { firstChunkSeen: false, edits: [], attributes: {} };
  };

  const observe = (event: AgentEvent) => {
    switch (event.type) {
      case "run_start":
        startRun(event);
        return;
      case "turn_start":
        call = { firstChunkSeen: false, edits: [], attributes: { [ck.turn]: event.turn } };
        return;
      case "context_edit":
        call.edits.push(event.reason ?? event.kind);
        if (event.kind === "replace") {
          // Clearing swaps old results for stubs; any other replacement is a compaction (a summary, an archive).
          const clearing = /clear/i.test(event.reason ?? "");
          call.attributes[clearing ? ck.clearing : ck.compaction] = true;
        } else call.attributes[ck.statusBarMode] = "append";
        return;
      case "cache_break":
        Object.assign(call.attributes, {
          [ck.cacheBreak]: true,
          [ck.cacheBreakDeclared]: event.declared,
          [ck.cacheBreakLayer]: event.layer,
          [ck.cacheBreakFirstDivergentToken]: event.firstDifferingToken,
          [ck.cacheBreakLostTokens]: event.lostTokens,
          ...(event.reason ? { [ck.cacheBreakReason]: event.reason } : {}),
        });
        return;
      case "request": {
        const model = event.model ?? "unknown";
        call.model = model;
        call.sentAt = performance.now();
        call.span = tracer.startSpan(`chat ${model}`, {
          kind: SpanKind.CLIENT,
          attributes: {
            [genAi.operationName]: "chat",
            ...(event.provider ? { [genAi.providerName]: providerName(event.provider) } : {}),
            [genAi.requestModel]: model,
            ...(event.maxOutputTokens !== undefined ? { [genAi.requestMaxTokens]: event.maxOutputTokens } : {}),
            ...(event.temperature !== undefined ? { [genAi.requestTemperature]: event.temperature } : {}),
            ...(event.reusablePrefixTokens !== undefined ? { [ck.reusablePrefixTokens]: event.reusablePrefixTokens } : {}),
            [ck.cacheBreak]: false,
            [ck.compaction]: false,
            [ck.clearing]: false,
            [ck.statusBarMode]: event.hasTail ? "tail" : "off",
            ...call.attributes,
            ...(call.edits.length > 0 ? { [ck.edits]: call.edits } : {}),
          },
        }, runContext);
        return;
      }
      case "usage":
        call.span?.setAttributes(usageAttributes(event.usage));
        if (event.usage.timeToFirstTokenMs !== undefined) call.span?.setAttribute(genAi.responseTimeToFirstChunk, event.usage.timeToFirstTokenMs / 1000);
        if (call.model !== undefined) {
          const cost = settings.costOf?.(event.usage, call.model);
          if (cost !== undefined) call.span?.setAttribute(ck.costUsd, cost);
        }
        return;
      case "turn_end": {
        const { message } = event;
        call.span?.setAttributes({
          [genAi.responseModel]: call.model ?? "unknown",
          [genAi.responseFinishReasons]: [message.rawStopReason ?? message.stopReason],
          ...(capture ? { [genAi.outputMessages]: JSON.stringify([{ role: "assistant", parts: outputParts(message), finish_reason: message.stopReason }]) } : {}),
        });
        endCall(message.stopReason === "error" ? "error" : undefined);
        // The tools run right after the turn: their spans start now, children of the run.
        for (const part of toolCallsOf(message)) {
          const span = tracer.startSpan(`execute_tool ${part.name}`, {
            kind: SpanKind.INTERNAL,
            attributes: {
              [genAi.operationName]: "execute_tool",
              [genAi.toolName]: part.name,
              [genAi.toolCallId]: part.id,
              [genAi.toolType]: "function",
              ...(capture ? { [genAi.toolCallArguments]: part.argumentsText } : {}),
            },
          }, runContext);
          tools.set(part.id, span);
          settings.toolContexts.set(part.id, trace.setSpan(runContext, span));
        }
        return;
      }
      case "tool_result": {
        const span = tools.get(event.message.toolCallId);
        if (!span) return;
        const preview = derivedOf(event.message, "preview");
        span.setAttributes({
          [ck.toolDurationMs]: event.durationMs,
          [ck.toolConfirmation]: event.confirmation ?? "not_required",
          [ck.toolCapped]: preview !== undefined,
          // A capped result's whole text is kept in the session's blob store, the preview points to it.
          [ck.toolSpilled]: preview?.blobId !== undefined,
          ...(event.message.meta.subAgent?.sessionId ? { [ck.subAgentSessionId]: event.message.meta.subAgent.sessionId } : {}),
          ...(capture ? { [genAi.toolCallResult]: event.message.content } : {}),
        });
        if (event.message.isError) span.setStatus({ code: SpanStatusCode.ERROR }).setAttribute(genAi.errorType, "tool_error");
        span.end();
        tools.delete(event.message.toolCallId);
        settings.toolContexts.delete(event.message.toolCallId);
        return;
      }
      case "error":
        endCall(event.code);
        runSpan.setStatus({ code: SpanStatusCode.ERROR, message: event.message }).setAttribute(genAi.errorType, event.code);
        return;
      case "run_end":
        endCall();
        runSpan.setAttributes({ ...usageAttributes(event.usage), [ck.stopReason]: event.stopReason, [ck.iterations]: event.iterations });
        if (capture && event.finalText !== "") runSpan.setAttribute(genAi.outputMessages, JSON.stringify([{ role: "assistant", parts: [{ type: "text", content: event.finalText }] }]));
        return;
      default:
        if (chunkEvents.has(event.type) && call.span && !call.firstChunkSeen && call.sentAt !== undefined) {
          call.firstChunkSeen = true;
          call.span.setAttribute(genAi.responseTimeToFirstChunk, (performance.now() - call.sentAt) / 1000);
        }
    }
  };

  try {
    for await (const event of events) {
      observe(event);
      yield event;
    }
  } finally {
    // A run left early (the consumer stopped, a throw) still closes every span it opened.
    endCall();
    for (const [id, span] of tools) {
      span.end();
      settings.toolContexts.delete(id);
    }
    runSpan.end();
  }
}

function usageAttributes(usage: Usage): Attributes {
  return {
    [genAi.usageInputTokens]: usage.inputTokens,
    [genAi.usageOutputTokens]: usage.outputTokens,
    [genAi.usageCacheReadInputTokens]: usage.cachedInputTokens,
    [genAi.usageCacheCreationInputTokens]: usage.cacheWriteTokens,
    [genAi.usageReasoningOutputTokens]: usage.reasoningTokens,
  };
}

function outputParts(message: Extract<AgentEvent, { type: "turn_end" }>["message"]): unknown[] {
  const text = textOf(message);
  return [
    ...(text !== "" ? [{ type: "text", content: text }] : []),
    ...toolCallsOf(message).map((part) => ({ type: "tool_call", id: part.id, name: part.name, arguments: part.arguments })),
  ];
}
