import { context as otelContext, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, TraceFlags, type Attributes, type Context, type Span, type Tracer } from "@opentelemetry/api";
import type { Provider } from "../providers/provider.js";
import { derivedOf, textOf, toolCallsOf, type AgentEvent, type ModelRequest, type Usage } from "../types/index.js";
import { inputMessagesOf, systemInstructionsOf } from "./gen-ai-messages.js";
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
  /**
   * A W3C `traceparent` (`00-<trace id>-<span id>-<flags>`) the run nests under, when the parent is in
   * another process: a durable run resumed on another worker passes the one `onTraceparent` gave when it
   * first started, so every segment of the run is one trace. Ignored when `parent` is given or it is malformed.
   */
  traceparent?: string;
  /** Called once with the run span's own `traceparent`, for a caller that stores it (a durable run's record). */
  onTraceparent?: (traceparent: string) => void;
}

export interface AgentTracing {
  /**
   * Passes the run's events through unchanged, turning them into spans on the way. When the tracer
   * does not record (no SDK registered, or sampled out), it hands back `events` itself: tracing off costs nothing per event.
   */
  traceRun(events: AsyncIterable<AgentEvent>, options?: TraceRunOptions): AsyncIterable<AgentEvent>;
  /** For `createTaskTool({ observeChildRun })`: a child's run nests under the parent's `execute_tool task` span. */
  observeChildRun(events: AsyncIterable<AgentEvent>, child: { agent: string; parentToolCallId: string }): AsyncIterable<AgentEvent>;
  /**
   * With message contents opted in: the provider, seen by tracing, so each `chat` span records what
   * that call sent (`gen_ai.input.messages`, `gen_ai.system_instructions`), which the run's events do
   * not carry. Without the opt-in it hands back `provider` itself.
   */
  observeProvider(provider: Provider): Provider;
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
  // The chat span whose request is being sent: set on a `request` event, read when the loop then
  // calls the provider (synchronously, within the same pull of the event stream), cleared after.
  const sending: RequestSlot = {};
  const tracing: AgentTracing = {
    traceRun: (events, runOptions = {}) =>
      traceRun(events, {
        ...options,
        capture,
        toolContexts,
        sending,
        agent: runOptions.agent ?? "ctxkit",
        parent: runOptions.parent ?? contextOfTraceparent(runOptions.traceparent) ?? otelContext.active(),
        ...(runOptions.onTraceparent ? { onTraceparent: runOptions.onTraceparent } : {}),
      }),
    observeChildRun: (events, child) => tracing.traceRun(events, { agent: child.agent, parent: toolContexts.get(child.parentToolCallId) ?? otelContext.active() }),
    observeProvider: (provider) =>
      !capture
        ? provider
        : new Proxy(provider, {
            get(target, property, receiver) {
              if (property !== "stream") return Reflect.get(target, property, receiver) as unknown;
              return (request: ModelRequest, signal?: AbortSignal) => {
                sending.record?.(request);
                sending.record = undefined;
                return target.stream(request, signal);
              };
            },
          }),
  };
  return tracing;
}

/** One-off form of `createAgentTracing(options).traceRun(events)`, for a run without sub-agents. */
export function traceAgentRun(events: AsyncIterable<AgentEvent>, options: AgentTracingOptions & TraceRunOptions): AsyncIterable<AgentEvent> {
  return createAgentTracing(options).traceRun(events, options);
}

interface RequestSlot {
  record?: (request: ModelRequest) => void;
}

interface RunTraceSettings extends AgentTracingOptions {
  capture: boolean;
  toolContexts: Map<string, Context>;
  sending: RequestSlot;
  agent: string;
  parent: Context;
  onTraceparent?: (traceparent: string) => void;
}

const traceparentPattern = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** A remote parent from a W3C traceparent (version 00; all-zero ids are invalid), or undefined. */
export function contextOfTraceparent(traceparent: string | undefined): Context | undefined {
  const match = traceparentPattern.exec(traceparent?.trim().toLowerCase() ?? "");
  if (!match || /^0+$/.test(match[1]!) || /^0+$/.test(match[2]!)) return undefined;
  return trace.setSpanContext(ROOT_CONTEXT, { traceId: match[1]!, spanId: match[2]!, traceFlags: Number.parseInt(match[3]!, 16) & TraceFlags.SAMPLED, isRemote: true });
}

function traceparentOf(span: Span): string {
  const { traceId, spanId, traceFlags } = span.spanContext();
  return `00-${traceId}-${spanId}-${(traceFlags & 0xff).toString(16).padStart(2, "0")}`;
}

interface CallState {
  span?: Span;
  sentAt?: number;
  firstChunkSeen: boolean;
  model?: string;
  edits: string[];
  /** A status message appended before this call (the status bar's append mode). */
  statusAppended: boolean;
  attributes: Attributes;
}

const newCall = (attributes: Attributes = {}): CallState => ({ firstChunkSeen: false, edits: [], statusAppended: false, attributes });

// What a replacement inserted says what it did (`meta.derived`, set by the harness): stubs clear old results;
// summaries, archives and compressed results compact.
const clearingKinds = new Set(["stub"]);
const compactionKinds = new Set(["summary", "archive", "compressed"]);

// ctxkit names an OpenAI-compatible server `openai-compatible:<vendor>`; the conventions name the vendor with
// their well-known values (anthropic, openai, deepseek, x_ai, mistral_ai, groq, …). Moonshot AI (Kimi) has no
// well-known value yet: it gets the company's name in the same style, `moonshot_ai`.
const knownProviders: Record<string, string> = {
  anthropic: "anthropic", openai: "openai", "openai-responses": "openai", deepseek: "deepseek", "x-ai": "x_ai", xai: "x_ai", mistral: "mistral_ai", groq: "groq", kimi: "moonshot_ai", moonshot: "moonshot_ai",
};

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
  settings.onTraceparent?.(traceparentOf(runSpan));
  return traceEvents(events, runSpan, settings);
}

async function* traceEvents(events: AsyncIterable<AgentEvent>, runSpan: Span, settings: RunTraceSettings): AsyncGenerator<AgentEvent, void> {
  const { tracer, capture } = settings;
  const runContext = trace.setSpan(settings.parent, runSpan);
  let call = newCall();
  let conversationId: string | undefined;
  let runModelSet = false;
  const tools = new Map<string, Span>();
  const providerName = (name: string) => settings.providerName?.(name) ?? conventionProviderName(name);

  const startRun = (event: Extract<AgentEvent, { type: "run_start" }>) => {
    conversationId = event.sessionId;
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
    call = newCall();
  };

  const observe = (event: AgentEvent) => {
    // The request of the previous `request` event was sent (or never will be) by now.
    settings.sending.record = undefined;
    switch (event.type) {
      case "run_start":
        startRun(event);
        return;
      case "turn_start":
        call = newCall({ [ck.turn]: event.turn });
        return;
      case "context_edit": {
        const kinds = event.derived ?? [];
        if (event.kind === "replace") {
          call.edits.push(event.reason ?? event.kind);
          if (kinds.some((kind) => clearingKinds.has(kind))) call.attributes[ck.clearing] = true;
          if (kinds.some((kind) => compactionKinds.has(kind))) call.attributes[ck.compaction] = true;
        } else if (kinds.includes("status")) call.statusAppended = true;
        return;
      }
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
        if (!runModelSet) {
          // The conventions require the provider on invoke_agent too (the model when known): the run's first call says them.
          runModelSet = true;
          runSpan.setAttributes({ ...(event.provider ? { [genAi.providerName]: providerName(event.provider) } : {}), [genAi.requestModel]: model });
        }
        call.span = tracer.startSpan(`chat ${model}`, {
          kind: SpanKind.CLIENT,
          attributes: {
            [genAi.operationName]: "chat",
            ...(event.provider ? { [genAi.providerName]: providerName(event.provider) } : {}),
            [genAi.requestModel]: model,
            ...(conversationId !== undefined ? { [genAi.conversationId]: conversationId } : {}),
            ...serverAttributes(event.baseURL),
            ...(event.maxOutputTokens !== undefined ? { [genAi.requestMaxTokens]: event.maxOutputTokens } : {}),
            ...(event.temperature !== undefined ? { [genAi.requestTemperature]: event.temperature } : {}),
            ...(event.reusablePrefixTokens !== undefined ? { [ck.reusablePrefixTokens]: event.reusablePrefixTokens } : {}),
            [ck.cacheBreak]: false,
            [ck.compaction]: false,
            [ck.clearing]: false,
            // ctxkit's own mode names: `replace` (the status rides in the tail, rewritten each call), `append` (stored in the trajectory).
            [ck.statusBarMode]: call.statusAppended ? "append" : event.tailPolicies?.includes(statusBarPolicy) ? "replace" : "off",
            ...call.attributes,
            ...(call.edits.length > 0 ? { [ck.edits]: call.edits } : {}),
          },
        }, runContext);
        if (capture) {
          const span = call.span;
          settings.sending.record = (request) =>
            span.setAttributes({ [genAi.systemInstructions]: JSON.stringify(systemInstructionsOf(request.system)), [genAi.inputMessages]: JSON.stringify(inputMessagesOf(request)) });
        }
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
          // Only what the server reported: the model that answered (a dated snapshot of an alias) and the response's id.
          ...(event.response?.model !== undefined ? { [genAi.responseModel]: event.response.model } : {}),
          ...(event.response?.id !== undefined ? { [genAi.responseId]: event.response.id } : {}),
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

// The status bar's policy name (src/context/status-bar/status-checkpoint.ts), spelled out: tracing imports no policy.
const statusBarPolicy = "status-bar";

/** `server.address` and `server.port` of a provider's base URL (the scheme's default port when none is given). */
function serverAttributes(baseURL: string | undefined): Attributes {
  if (baseURL === undefined) return {};
  try {
    const url = new URL(baseURL);
    const port = url.port !== "" ? Number(url.port) : url.protocol === "https:" ? 443 : url.protocol === "http:" ? 80 : undefined;
    return { [genAi.serverAddress]: url.hostname.replace(/^\[|\]$/g, ""), ...(port !== undefined ? { [genAi.serverPort]: port } : {}) };
  } catch {
    return {};
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
