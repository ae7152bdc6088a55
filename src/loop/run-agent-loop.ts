import { addUsage, emptyUsage, textOf, toolCallsOf, type AgentEvent, type AssistantMessage, type Message, type RunError, type RunResult, type RunStopReason, type ToolCallPart, type Usage, type UserMessage } from "../types/index.js";
import { createMeta, totalToolCallsKey, type LoopState } from "./loop-state.js";
import { requestModelTurn } from "./request-model-turn.js";
import { runToolCalls } from "./run-tool-calls.js";

/**
 * The agent loop: append the user's message, then call the model and run the tools it asks for
 * until it answers without tool calls, hits a limit, repeats itself, fails or is aborted.
 * Messages are appended once and never changed (except by declared context edits), and the
 * session is flushed before each model call, so a crash loses nothing that was sent.
 */
export async function* runAgentLoop(state: LoopState, input: string, signal?: AbortSignal): AsyncGenerator<AgentEvent, RunResult> {
  const { options, trajectory, clock } = state;
  const session = options.session;
  const maxIterations = options.runtime?.maxIterations ?? 50;
  const abortSignal = signal ?? new AbortController().signal;
  const runId = state.createId();
  const appended: Message[] = [];
  let usage: Usage = emptyUsage();
  // Sub-agents' tokens are counted in `usage` too (the run's whole spend) and reported apart.
  let subAgentUsage: Usage | undefined;
  let iterations = 0;
  // Set when the last response was not taken as an answer and the next request goes on with it.
  let continuesTurn = false;

  const append = (message: Message) => {
    trajectory.push(message);
    appended.push(message);
    session?.appendMessage(message);
  };
  let ended = false;
  const finish = async function* (stopReason: RunStopReason, error?: RunError): AsyncGenerator<AgentEvent, RunResult> {
    ended = true;
    try {
      session?.appendRunEnd({ runId, stopReason, usage, iterations, at: clock().toISOString(), ...(subAgentUsage ? { subAgentUsage } : {}), ...(error ? { error } : {}) });
      await session?.flush();
    } catch (thrown) {
      // The run's outcome still reaches the caller; the session file just lacks its end.
      yield { type: "warning", code: "session_write_failed", message: `Could not record the end of the run: ${thrown instanceof Error ? thrown.message : String(thrown)}` };
    }
    const last = appended.at(-1);
    const answer = stopReason === "final_answer" && last?.role === "assistant" ? textOf(last) : "";
    // The policies' last look at the answer (leak withholding): the trajectory keeps what the model wrote.
    const filtered = answer === "" ? undefined : state.policy.onFinalText?.(answer, { system: state.prefix.system });
    for (const warning of filtered?.warnings ?? []) yield { type: "warning", ...warning };
    const finalText = filtered ? filtered.text : answer;
    const sessionId = session ? { sessionId: session.id } : {};
    const children = subAgentUsage ? { subAgentUsage } : {};
    yield { type: "run_end", stopReason, usage, iterations, finalText, ...sessionId, ...children, ...(error ? { error } : {}) };
    return { stopReason, finalText, messages: appended, usage, iterations, ...sessionId, ...children, ...(error ? { error } : {}) };
  };

  // A budget starts the run's task level here (a resumed session's level already holds its earlier spend).
  const started = state.policy.startRun?.();
  yield { type: "run_start", runId, input, ...(session ? { sessionId: session.id } : {}) };
  session?.appendRunStart({ runId, input, at: clock().toISOString(), ...(started?.budget ? { budget: started.budget } : {}) });
  const userMessage: UserMessage = { role: "user", content: input, meta: createMeta(state, "user") };
  append(state.policy.processUserMessage ? state.policy.processUserMessage(userMessage, { trajectory, now: clock() }) : userMessage);

  try {
    while (true) {
      if (abortSignal.aborted) return yield* finish("aborted");
      if (iterations >= maxIterations) {
        const last = appended.at(-1);
        const paused = last?.role === "assistant" && last.stopReason === "paused";
        const message = paused
          ? `Stopped after ${maxIterations} model calls (maxIterations) while the provider was still pausing the model's turn (${last.rawStopReason ?? "paused"}): its answer is unfinished. Raise maxIterations or run again to continue.`
          : `Stopped after ${maxIterations} model calls (maxIterations). Raise maxIterations or run again to continue.`;
        yield { type: "warning", code: "max_iterations", message };
        return yield* finish("max_iterations", { code: "max_iterations", message });
      }
      const turn = iterations++;
      yield { type: "turn_start", turn };

      const outcome = yield* requestModelTurn({ state, turn, runId, signal: abortSignal, continuesTurn, onUsage: (callUsage) => (usage = addUsage(usage, callUsage)) });
      continuesTurn = false;
      if (outcome.kind === "aborted") {
        // Keep what the model said before the abort; drop half-streamed tool calls (they have no result).
        const kept = outcome.partial.filter((part) => part.type !== "tool_call");
        if (kept.length > 0) {
          const partial: AssistantMessage = { role: "assistant", content: kept, meta: createMeta(state, "model"), stopReason: "aborted" };
          append(partial);
          yield { type: "turn_end", turn, message: partial };
        }
        return yield* finish("aborted");
      }
      if (outcome.kind === "refused") {
        if (outcome.stop.stopReason === "error") yield { type: "error", ...outcome.stop.error };
        return yield* finish(outcome.stop.stopReason, outcome.stop.error);
      }
      if (outcome.kind === "failed") {
        yield { type: "error", ...outcome.error };
        return yield* finish("error", outcome.error);
      }

      const { response } = outcome;
      // A server can end an answer with a failure as its finish reason (DeepSeek's
      // insufficient_system_resource, GLM's network_error, vLLM's abort): the text is cut short and
      // was taken as the final answer. Its half-streamed calls are dropped, as on an abort.
      const serverFailed = response.stopReason === "error";
      const content = serverFailed ? response.content.filter((part) => part.type !== "tool_call") : response.content;
      if (serverFailed) {
        const error: RunError = {
          code: "provider_http_error",
          message: `The model server ended its answer with a failure (finish reason ${response.rawStopReason ?? "error"}), so the answer is incomplete; retry the turn.`,
        };
        if (content.length > 0) {
          const partial: AssistantMessage = { role: "assistant", content, meta: createMeta(state, "model"), stopReason: "error", ...(response.rawStopReason ? { rawStopReason: response.rawStopReason } : {}) };
          append(partial);
          yield { type: "turn_end", turn, message: partial };
        }
        yield { type: "error", ...error };
        return yield* finish("error", error);
      }
      const assistant: AssistantMessage = {
        role: "assistant",
        content,
        meta: createMeta(state, "model"),
        stopReason: response.stopReason,
        ...(response.rawStopReason ? { rawStopReason: response.rawStopReason } : {}),
      };
      const calls = toolCallsOf(assistant);
      append(assistant);
      yield {
        type: "turn_end", turn, message: assistant,
        ...(response.id !== undefined || response.model !== undefined ? { response: { ...(response.id !== undefined ? { id: response.id } : {}), ...(response.model !== undefined ? { model: response.model } : {}) } } : {}),
      };

      if (calls.length === 0) {
        // Not an answer when a policy reads it as a pause (a server that stopped after compacting) or
        // the provider paused a turn it was still working on (Anthropic's pause_turn, its server tools'
        // loop at its limit): the next request ends with this message, unchanged and without a tail,
        // and the model goes on from it; maxIterations bounds a server that pauses for ever.
        continuesTurn = state.policy.continueTurn?.(assistant) !== undefined || assistant.stopReason === "paused";
        if (continuesTurn) continue;
        if (assistant.stopReason === "length") {
          yield { type: "warning", code: "output_truncated", message: "The model's answer was cut at the output token limit; raise maxOutputTokens for a complete answer." };
        }
        // A refusal can come with no text at all (Anthropic's stop_reason refusal): without a word, the
        // run ended as an answer that said nothing.
        if (assistant.stopReason === "content_filter") {
          yield { type: "warning", code: "content_filtered", message: `The provider stopped the model's answer for its content (${assistant.rawStopReason ?? "content_filter"}: a refusal or a content filter), so the answer may be empty or cut short.` };
        }
        return yield* finish("final_answer");
      }

      const onSubAgentUsage = (childUsage: Usage) => {
        usage = addUsage(usage, childUsage);
        subAgentUsage = addUsage(subAgentUsage ?? emptyUsage(), childUsage);
      };
      // The output limit cuts the answer's end, so only its last call can be cut: an earlier one whose
      // JSON does not parse was malformed, and told to split itself it would be sent the wrong way.
      const lastCall = calls.at(-1);
      const cutCallId = assistant.stopReason === "length" && lastCall !== undefined && lastCall.arguments === undefined ? lastCall.id : undefined;
      if (cutCallId !== undefined) {
        yield { type: "warning", code: "output_truncated", message: "The model's answer was cut at the output token limit inside a tool call's arguments; the call fails and the model is told to split it. Raise maxOutputTokens if this repeats." };
      }
      const { stop, error } = yield* runToolCalls(calls, { state, turn, signal: abortSignal, append, onSubAgentUsage, ...(cutCallId === undefined ? {} : { cutCallId }) });
      if (abortSignal.aborted) return yield* finish("aborted");
      if (error) {
        yield { type: "error", ...error };
        return yield* finish("error", error);
      }
      if (stop) return yield* finish(stop.stopReason, stop.error);
    }
  } finally {
    // The consumer left the run early (break out of for-await): answer the calls it had started and
    // record the end, or the next run of this chat would send calls without results (a 400).
    if (!ended) {
      for (const call of unansweredCalls(appended)) {
        const content = `Error (failed): '${call.name}' may have run, but the run was stopped before its result was recorded.`;
        state.toolCallCounts.set(call.name, (state.toolCallCounts.get(call.name) ?? 0) + 1);
        state.toolCallCounts.set(totalToolCallsKey, (state.toolCallCounts.get(totalToolCallsKey) ?? 0) + 1);
        append({ role: "tool", toolCallId: call.id, toolName: call.name, content, isError: true, meta: createMeta(state, "tool") });
      }
      session?.appendRunEnd({ runId, stopReason: "aborted", usage, iterations, at: clock().toISOString(), ...(subAgentUsage ? { subAgentUsage } : {}) });
      session?.flush().catch(() => undefined);
    }
  }
}

/** Tool calls of the last assistant message that have no result after it. */
function unansweredCalls(messages: readonly Message[]): ToolCallPart[] {
  const index = messages.findLastIndex((message) => message.role === "assistant");
  if (index === -1) return [];
  const answered = new Set(messages.slice(index + 1).flatMap((message) => (message.role === "tool" ? [message.toolCallId] : [])));
  return toolCallsOf(messages[index] as AssistantMessage).filter((call) => !answered.has(call.id));
}
