import { toProcessedToolResult } from "../context/context-policy.js";
import { capToolOutput } from "./cap-tool-output.js";
import type { AgentEvent, ToolCallPart, ToolMessage, RunError, Usage } from "../types/index.js";
import { executeToolCalls, failure, type ToolCallOutcome } from "./execute-tool-calls.js";
import { createMeta, totalToolCallsKey, type LoopState } from "./loop-state.js";
import type { RepeatVerdict } from "./repeated-call-detector.js";
import { callToolName, toolSearchToolName } from "../tools/search/tool-discovery.js";

const toolSearchOwnTools = new Set([toolSearchToolName, callToolName]);

export interface ToolTurnContext {
  state: LoopState;
  turn: number;
  signal: AbortSignal;
  detectRepeat: (call: ToolCallPart) => RepeatVerdict;
  append: (message: ToolMessage) => void;
  /** Told the usage of each sub-agent a call ran (a `task` call), for the run's totals. */
  onSubAgentUsage?: (usage: Usage) => void;
}

/**
 * Runs one turn's tool calls and appends one result per call, in call order (providers reject a
 * call without its result). Returns whether the model repeated a call after being warned.
 */
export async function* runToolCalls(
  calls: readonly ToolCallPart[],
  context: ToolTurnContext,
): AsyncGenerator<AgentEvent, { stopForRepeat: boolean; error?: RunError }> {
  const { state, turn } = context;
  const { options } = state;
  const limit = options.repeatedCallLimit ?? 3;
  let stopForRepeat = false;
  let error: RunError | undefined;
  const runnable: ToolCallPart[] = [];
  const outcomes = new Map<string, ToolCallOutcome>();
  for (const call of calls) {
    const verdict = context.detectRepeat(call);
    if (verdict === "ok") {
      runnable.push(call);
      continue;
    }
    if (verdict === "stop") stopForRepeat = true;
    const message =
      verdict === "warn"
        ? `You have called '${call.name}' with identical arguments ${limit} times in a row; it was not run again because the result will not change. Use the earlier result or try a different approach. One more identical call stops the run.`
        : `'${call.name}' was called with identical arguments again after a warning; the run stops here.`;
    outcomes.set(call.id, { call, durationMs: 0, output: failure("failed", message) });
  }
  const executed = await executeToolCalls(runnable, {
    tools: state.toolsByName,
    validators: state.validators,
    hooks: options.hooks ?? {},
    ...(options.confirmToolCall ? { confirmToolCall: options.confirmToolCall } : {}),
    ...(options.runtimeGuard ? { runtimeGuard: options.runtimeGuard, system: [state.prefix.system.staticText, state.prefix.system.sessionText ?? ""].join("\n") } : {}),
    defaultTimeoutMs: options.toolTimeoutMs ?? 120_000,
    signal: context.signal,
    messages: state.trajectory,
    blobs: state.blobStore,
    ...(state.policy.routeToolCall ? { routeToolCall: state.policy.routeToolCall } : {}),
    findMessage: (id) => state.replaced.get(id) ?? state.trajectory.find((message) => message.meta.id === id),
    ...(state.budget ? { budget: state.budget } : {}),
    // The tool-search tools are left out: a fork child rebuilds the same ones from the same deferred tools.
    agent: {
      system: state.prefix.system,
      tools: [...state.toolsByName.values()].filter((tool) => !toolSearchOwnTools.has(tool.name)),
      ...(options.settings ? { settings: options.settings } : {}),
      ...(options.toolSearch?.lateTools ? { lateTools: options.toolSearch.lateTools } : {}),
    },
  });
  for (const result of executed) outcomes.set(result.call.id, result);

  for (const call of calls) {
    const result = outcomes.get(call.id);
    if (!result) continue;
    // A routed call (through `call_tool`) is the tool it ran: its name, count and source are that tool's.
    const ran = result.routed ?? call;
    const callNumber = (state.toolCallCounts.get(ran.name) ?? 0) + 1;
    const totalCallNumber = (state.toolCallCounts.get(totalToolCallsKey) ?? 0) + 1;
    state.toolCallCounts.set(ran.name, callNumber);
    state.toolCallCounts.set(totalToolCallsKey, totalCallNumber);
    const subAgent = result.output.subAgent;
    if (subAgent) context.onSubAgentUsage?.(subAgent.usage);
    const raw: ToolMessage = {
      role: "tool",
      toolCallId: call.id,
      toolName: ran.name,
      content: capToolOutput(result.output.content, options.maxToolResultCharacters),
      isError: result.output.isError === true,
      meta: { ...createMeta(state, "tool"), ...(subAgent ? { subAgent } : {}) },
    };
    let message = raw;
    // A failing processor (e.g. a blob store that cannot write) ends the run, but only after every
    // call got a result: a call without one makes the provider reject the next request of this chat.
    const processToolResult = state.policy.processToolResult;
    if (processToolResult && error === undefined) {
      try {
        const processed = toProcessedToolResult(await processToolResult(raw, {
          call: ran,
          ...(result.output.errorKind ? { errorKind: result.output.errorKind } : {}),
          durationMs: result.durationMs,
          callNumber,
          totalCallNumber,
          now: state.clock(),
          ...(result.output.errorKind === "unknown_tool" ? {} : { source: result.output.source ?? (result.tool ?? state.toolsByName.get(ran.name))?.source ?? "workspace" }),
        }));
        // The original a preview points to is stored before the preview is appended.
        for (const blob of processed.blobs) state.blobStore.put(blob.content);
        message = processed.message;
      } catch (thrown) {
        const code = (thrown as { code?: unknown } | null)?.code;
        const reason = thrown instanceof Error ? thrown.message : String(thrown);
        error = {
          code: "tool_result_processing_failed",
          message: `Processing the result of '${ran.name}' failed${typeof code === "string" ? ` (${code})` : ""}: ${reason} The unprocessed result was stored.`,
        };
      }
    }
    context.append(message);
    yield { type: "tool_result", turn, message, durationMs: result.durationMs };
  }
  return { stopForRepeat, ...(error ? { error } : {}) };
}
