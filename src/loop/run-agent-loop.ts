import type { PrefixGuard } from "../context/prefix-guard/index.js";
import { describeCacheBreak } from "../context/prefix-guard/index.js";
import type { StablePrefix } from "../context/stable-prefix.js";
import type { Tool } from "../tools/tool.js";
import type { ArgumentsValidator } from "../tools/validate-tool-arguments.js";
import {
  addUsage,
  emptyUsage,
  textOf,
  toolCallsOf,
  type AgentEvent,
  type AssistantMessage,
  type Message,
  type MessageOrigin,
  type ModelRequest,
  type RunResult,
  type RunStopReason,
  type ToolMessage,
  type Usage,
  type UserMessage,
} from "../types/index.js";
import type { AgentOptions } from "./agent-options.js";
import { callModel } from "./call-model.js";
import { executeToolCalls, failure, type ToolCallOutcome } from "./execute-tool-calls.js";
import { createRepeatedCallDetector } from "./repeated-call-detector.js";

export interface LoopState {
  options: AgentOptions;
  prefix: StablePrefix;
  trajectory: Message[];
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tools of any argument type live in one map
  toolsByName: Map<string, Tool<any>>;
  validators: Map<string, ArgumentsValidator>;
  clock: () => Date;
  createId: () => string;
  buildRequest: (tail?: UserMessage) => ModelRequest;
  guard: PrefixGuard | undefined;
  /** Set by `agent.declareCacheBreak()`: the next request may break the prefix for this reason. */
  declaredBreak: { reason: string } | undefined;
}

/**
 * The agent loop: append the user's message, then call the model and run the tools it asks for
 * until it answers without tool calls, hits a limit, repeats itself, fails or is aborted.
 * Every message is appended once and never changed, and the session is flushed before each model
 * call, so a crash loses nothing that was sent.
 */
export async function* runAgentLoop(state: LoopState, input: string, signal?: AbortSignal): AsyncGenerator<AgentEvent, RunResult> {
  const { options, trajectory, clock } = state;
  const session = options.session;
  const maxIterations = options.maxIterations ?? 50;
  const detectRepeat = createRepeatedCallDetector(options.repeatedCallLimit ?? 3);
  const abortSignal = signal ?? new AbortController().signal;
  const runId = state.createId();
  const appended: Message[] = [];
  let usage: Usage = emptyUsage();
  let iterations = 0;

  const meta = (origin: MessageOrigin) => ({ id: state.createId(), origin, createdAt: clock().toISOString() });
  const append = (message: Message) => {
    trajectory.push(message);
    appended.push(message);
    session?.appendMessage(message);
  };
  const finish = async function* (
    stopReason: RunStopReason,
    error?: { code: string; message: string },
  ): AsyncGenerator<AgentEvent, RunResult> {
    session?.appendRunEnd({ runId, stopReason, usage, iterations, at: clock().toISOString() });
    await session?.flush();
    const last = appended.at(-1);
    const finalText = stopReason === "final_answer" && last?.role === "assistant" ? textOf(last) : "";
    const result: RunResult = {
      stopReason,
      finalText,
      messages: appended,
      usage,
      iterations,
      ...(session ? { sessionId: session.id } : {}),
      ...(error ? { error } : {}),
    };
    yield { type: "run_end", stopReason, usage, iterations, finalText, ...(session ? { sessionId: session.id } : {}), ...(error ? { error } : {}) };
    return result;
  };

  yield { type: "run_start", runId, input, ...(session ? { sessionId: session.id } : {}) };
  session?.appendRunStart({ runId, input, at: clock().toISOString() });
  append({ role: "user", content: input, meta: meta("user") });

  while (true) {
    if (abortSignal.aborted) return yield* finish("aborted");
    if (iterations >= maxIterations) {
      const message = `Stopped after ${maxIterations} model calls (maxIterations). Raise maxIterations or run again to continue.`;
      yield { type: "warning", code: "max_iterations", message };
      return yield* finish("max_iterations", { code: "max_iterations", message });
    }
    const turn = iterations++;
    yield { type: "turn_start", turn };

    const tailText = options.tail?.({ trajectory, iteration: turn, now: clock() });
    const tail: UserMessage | undefined =
      tailText === undefined ? undefined : { role: "user", content: tailText, meta: { id: `tail_${runId}_${turn}`, origin: "harness", createdAt: clock().toISOString() } };
    const built = state.buildRequest(tail);
    const request = options.hooks?.transformRequest ? options.hooks.transformRequest(built) : built;
    if (state.guard) {
      let check;
      try {
        check = state.guard.check(request, state.declaredBreak);
      } catch (error) {
        const failure = { code: "prefix_break", message: error instanceof Error ? error.message : String(error) };
        yield { type: "error", ...failure };
        return yield* finish("error", failure);
      }
      state.declaredBreak = undefined;
      const cacheBreak = check.cacheBreak;
      if (cacheBreak) {
        const { excerpt: _excerpt, ...fields } = cacheBreak;
        yield { type: "cache_break", turn, ...fields };
        if (!cacheBreak.declared) yield { type: "warning", code: "undeclared_cache_break", message: describeCacheBreak(cacheBreak) };
      }
    }
    let requestIndex = -1;
    if (session) {
      requestIndex = session.appendRequest({
        messageCount: request.messages.length,
        tail: request.tail ?? null,
        provider: options.provider.name,
        model: options.provider.model,
        at: clock().toISOString(),
      });
      await session.flush();
    }
    yield { type: "request", turn, messageCount: request.messages.length, hasTail: request.tail !== undefined };

    const outcome = yield* callModel(options.provider, request, turn, abortSignal);
    const callUsage = outcome.usage;
    if (callUsage) {
      usage = addUsage(usage, callUsage);
      // Usage records point at the request record they belong to (numbered across the whole session).
      session?.appendUsage(requestIndex, callUsage);
      yield { type: "usage", turn, usage: callUsage };
    }

    if (!outcome.ok) {
      if (outcome.error.code === "aborted" || abortSignal.aborted) {
        // Keep what the model said before the abort; drop half-streamed tool calls (they have no result).
        const kept = outcome.partial.content.filter((part) => part.type !== "tool_call");
        if (kept.length > 0) {
          const partial: AssistantMessage = { role: "assistant", content: kept, meta: meta("model"), stopReason: "aborted" };
          append(partial);
          yield { type: "turn_end", turn, message: partial };
        }
        return yield* finish("aborted");
      }
      const error = { code: outcome.error.code, message: outcome.error.message };
      yield { type: "error", ...error };
      return yield* finish("error", error);
    }

    const assistant: AssistantMessage = {
      role: "assistant",
      content: outcome.response.content,
      meta: meta("model"),
      stopReason: outcome.response.stopReason,
      ...(outcome.response.rawStopReason ? { rawStopReason: outcome.response.rawStopReason } : {}),
    };
    for (const call of toolCallsOf(assistant)) {
      yield { type: "tool_call_end", turn, id: call.id, name: call.name, argumentsText: call.argumentsText, arguments: call.arguments };
    }
    append(assistant);
    yield { type: "turn_end", turn, message: assistant };

    const calls = toolCallsOf(assistant);
    if (calls.length === 0) {
      if (assistant.stopReason === "length") {
        yield { type: "warning", code: "output_truncated", message: "The model's answer was cut at the output token limit; raise maxOutputTokens for a complete answer." };
      }
      return yield* finish("final_answer");
    }

    let stopForRepeat = false;
    const runnable = [];
    const outcomes = new Map<string, ToolCallOutcome>();
    for (const call of calls) {
      const verdict = detectRepeat(call);
      if (verdict === "ok") {
        runnable.push(call);
        continue;
      }
      if (verdict === "stop") stopForRepeat = true;
      const limit = options.repeatedCallLimit ?? 3;
      outcomes.set(call.id, {
        call,
        durationMs: 0,
        output: failure(
          "failed",
          verdict === "warn"
            ? `You have called '${call.name}' with identical arguments ${limit} times in a row; it was not run again because the result will not change. Use the earlier result or try a different approach. One more identical call stops the run.`
            : `'${call.name}' was called with identical arguments again after a warning; the run stops here.`,
        ),
      });
    }
    const executed = await executeToolCalls(runnable, {
      tools: state.toolsByName,
      validators: state.validators,
      hooks: options.hooks ?? {},
      ...(options.confirmToolCall ? { confirmToolCall: options.confirmToolCall } : {}),
      defaultTimeoutMs: options.toolTimeoutMs ?? 120_000,
      signal: abortSignal,
    });
    for (const result of executed) outcomes.set(result.call.id, result);

    // Results go in call order, one per call, so every tool call keeps its result (providers reject orphans).
    for (const call of calls) {
      const result = outcomes.get(call.id);
      if (!result) continue;
      const message: ToolMessage = {
        role: "tool",
        toolCallId: call.id,
        toolName: call.name,
        content: result.output.content,
        isError: result.output.isError === true,
        meta: meta("tool"),
      };
      append(message);
      yield { type: "tool_result", turn, message, durationMs: result.durationMs };
    }

    if (abortSignal.aborted) return yield* finish("aborted");
    if (stopForRepeat) {
      const message = "The model repeated an identical tool call after being warned; the run was stopped.";
      yield { type: "warning", code: "repeated_tool_call", message };
      return yield* finish("repeated_tool_call", { code: "repeated_tool_call", message });
    }
  }
}
