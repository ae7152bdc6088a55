import { addUsage, emptyUsage, textOf, toolCallsOf, type AgentEvent, type AssistantMessage, type Message, type RunError, type RunResult, type RunStopReason, type SystemPrompt, type ToolCallPart, type Usage, type UserMessage } from "../types/index.js";
import { createMeta, totalToolCallsKey, type LoopState } from "./loop-state.js";
import { createRepeatedCallDetector } from "./repeated-call-detector.js";
import { requestModelTurn } from "./request-model-turn.js";
import { toRunBudgetRecords } from "./enforce-budget.js";
import { runToolCalls } from "./run-tool-calls.js";
import { defaultLeakChars, findSystemPromptLeak } from "../security/find-system-prompt-leak.js";

/**
 * The agent loop: append the user's message, then call the model and run the tools it asks for
 * until it answers without tool calls, hits a limit, repeats itself, fails or is aborted.
 * Messages are appended once and never changed (except by declared context edits), and the
 * session is flushed before each model call, so a crash loses nothing that was sent.
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
  // Sub-agents' tokens are counted in `usage` too (the run's whole spend) and reported apart.
  let subAgentUsage: Usage | undefined;
  let iterations = 0;

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
    const leak = options.withholdSystemPromptLeaks ? findSystemPromptLeak(systemText(state.prefix.system), answer, leakChars(options.withholdSystemPromptLeaks)) : undefined;
    if (leak) yield { type: "warning", code: "system_prompt_leak", message: `The answer repeated ${leak.chars} characters of the system prompt verbatim; it was withheld.` };
    const finalText = leak ? `[withheld: the answer repeated ${leak.chars} characters of the system prompt]` : answer;
    const sessionId = session ? { sessionId: session.id } : {};
    const children = subAgentUsage ? { subAgentUsage } : {};
    yield { type: "run_end", stopReason, usage, iterations, finalText, ...sessionId, ...children, ...(error ? { error } : {}) };
    return { stopReason, finalText, messages: appended, usage, iterations, ...sessionId, ...children, ...(error ? { error } : {}) };
  };

  // Each run is a task level of the agent's budget (a resumed session's level already holds its earlier spend).
  state.budget = options.budget?.startTask();
  yield { type: "run_start", runId, input, ...(session ? { sessionId: session.id } : {}) };
  session?.appendRunStart({ runId, input, at: clock().toISOString(), ...(state.budget ? { budget: toRunBudgetRecords(state.budget.status()) } : {}) });
  const userMessage: UserMessage = { role: "user", content: input, meta: createMeta(state, "user") };
  append(state.policy.processUserMessage ? state.policy.processUserMessage(userMessage, { trajectory, now: clock() }) : userMessage);

  try {
    while (true) {
      if (abortSignal.aborted) return yield* finish("aborted");
      if (iterations >= maxIterations) {
        const message = `Stopped after ${maxIterations} model calls (maxIterations). Raise maxIterations or run again to continue.`;
        yield { type: "warning", code: "max_iterations", message };
        return yield* finish("max_iterations", { code: "max_iterations", message });
      }
      const turn = iterations++;
      yield { type: "turn_start", turn };

      const outcome = yield* requestModelTurn({ state, turn, runId, signal: abortSignal, onUsage: (callUsage) => (usage = addUsage(usage, callUsage)) });
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
      if (outcome.kind === "budget_exceeded") {
        yield { type: "warning", code: "budget_exceeded", message: outcome.error.message };
        return yield* finish("budget_exceeded", outcome.error);
      }
      if (outcome.kind === "failed") {
        yield { type: "error", ...outcome.error };
        return yield* finish("error", outcome.error);
      }

      const { response } = outcome;
      const assistant: AssistantMessage = {
        role: "assistant",
        content: response.content,
        meta: createMeta(state, "model"),
        stopReason: response.stopReason,
        ...(response.rawStopReason ? { rawStopReason: response.rawStopReason } : {}),
      };
      const calls = toolCallsOf(assistant);
      append(assistant);
      yield { type: "turn_end", turn, message: assistant };

      if (calls.length === 0) {
        if (assistant.stopReason === "length") {
          yield { type: "warning", code: "output_truncated", message: "The model's answer was cut at the output token limit; raise maxOutputTokens for a complete answer." };
        }
        return yield* finish("final_answer");
      }

      const onSubAgentUsage = (childUsage: Usage) => {
        usage = addUsage(usage, childUsage);
        subAgentUsage = addUsage(subAgentUsage ?? emptyUsage(), childUsage);
      };
      const { stopForRepeat, error } = yield* runToolCalls(calls, { state, turn, signal: abortSignal, detectRepeat, append, onSubAgentUsage });
      if (abortSignal.aborted) return yield* finish("aborted");
      if (error) {
        yield { type: "error", ...error };
        return yield* finish("error", error);
      }
      if (stopForRepeat) {
        const message = "The model repeated an identical tool call after being warned; the run was stopped.";
        yield { type: "warning", code: "repeated_tool_call", message };
        return yield* finish("repeated_tool_call", { code: "repeated_tool_call", message });
      }
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

function systemText(system: Readonly<SystemPrompt>): string {
  return [system.staticText, system.sessionText ?? ""].join("\n");
}

function leakChars(setting: true | { minChars?: number }): number {
  return setting === true ? defaultLeakChars : (setting.minChars ?? defaultLeakChars);
}
