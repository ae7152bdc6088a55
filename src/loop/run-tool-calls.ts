import { toProcessedToolResult } from "../context/context-policy.js";
import type { PolicyStop } from "../context/policy-gates.js";
import type { AgentEvent, ToolCallPart, ToolMessage, RunError, Usage } from "../types/index.js";
import { executeToolCalls, type ToolCallOutcome } from "./execute-tool-calls.js";
import { createMeta, totalToolCallsKey, type LoopState } from "./loop-state.js";

export interface ToolTurnContext {
  state: LoopState;
  turn: number;
  signal: AbortSignal;
  append: (message: ToolMessage) => void;
  /** Told the usage of each sub-agent a call ran (a `task` call), for the run's totals. */
  onSubAgentUsage?: (usage: Usage) => void;
  /** The call whose arguments the output token limit cut (the answer's last call, when it does not parse). */
  cutCallId?: string;
}

/**
 * Runs one turn's tool calls and appends one result per call, in call order (providers reject a
 * call without its result). Returns the stop a policy's refusal asked for (a repeated call after a
 * warning), if any: the turn's other calls still get their results first.
 */
export async function* runToolCalls(
  calls: readonly ToolCallPart[],
  context: ToolTurnContext,
): AsyncGenerator<AgentEvent, { stop?: PolicyStop; error?: RunError }> {
  const { state, turn } = context;
  const { options } = state;
  let error: RunError | undefined;
  const outcomes = new Map<string, ToolCallOutcome>();
  const executed = await executeToolCalls(calls, {
    tools: state.toolsByName,
    validators: state.validators,
    ...(state.policy.onToolCall ? { onToolCall: state.policy.onToolCall } : {}),
    ...(options.confirmToolCall ? { confirmToolCall: options.confirmToolCall } : {}),
    system: state.prefix.system,
    defaultTimeoutMs: options.runtime?.toolTimeoutMs ?? 120_000,
    signal: context.signal,
    messages: state.trajectory,
    blobs: state.blobStore,
    ...(state.policy.routeToolCall ? { routeToolCall: state.policy.routeToolCall } : {}),
    ...(options.runtime?.wrapTool ? { wrapTool: options.runtime.wrapTool } : {}),
    ...(context.cutCallId === undefined ? {} : { cutCallId: context.cutCallId }),
    findMessage: (id) => state.replaced.get(id) ?? state.trajectory.find((message) => message.meta.id === id),
    // What a child starts from: the caller's tools (a fork's prefix is its parent's, so policies'
    // tools go with them) and every policy, which the child filters by each one's `inherit`.
    agent: {
      system: state.prefix.system,
      tools: [...state.toolsByName.values()],
      policies: state.policy.members,
      ...(options.settings ? { settings: options.settings } : {}),
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
      content: result.output.content,
      isError: result.output.isError === true,
      meta: { ...createMeta(state, "tool"), ...(subAgent ? { subAgent } : {}), ...(result.output.toolSearch ? { toolSearch: result.output.toolSearch } : {}) },
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
    yield { type: "tool_result", turn, message, durationMs: result.durationMs, ...(result.confirmation ? { confirmation: result.confirmation } : {}) };
  }
  const stop = executed.find((result) => result.stop)?.stop;
  for (const result of executed) for (const warning of result.warnings ?? []) yield { type: "warning", ...warning };
  return { ...(stop ? { stop } : {}), ...(error ? { error } : {}) };
}
