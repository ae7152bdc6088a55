import { canonicalJson } from "../../providers/shared/canonical-json.js";
import type { Message, UserMessage } from "../../types/index.js";
import { findStatusCheckpoint } from "./status-checkpoint.js";
import type { StatusBarTarget } from "./status-bar-settings.js";
import { currentRunStart } from "./status-message.js";
import { replayTodoList } from "./replay-todo-list.js";
import type { TodoItem } from "./todo-list.js";
import { collectToolCalls } from "./tool-call-history.js";
import { stripUserMetadata } from "./annotate-user-message.js";

export interface TargetCount {
  tool: string;
  argument: string;
  /** The argument's value as the model wrote it (a string, or compact JSON for other values). */
  value: string;
  count: number;
}

/** The same call (tool and arguments) failing again and again. */
export interface RepeatedFailure {
  tool: string;
  /** Compact canonical JSON of the arguments (the raw text when they were not valid JSON). */
  argumentsJson: string;
  failures: number;
  /** The error kind of the last failure, when the result states it. */
  kind?: string;
}

/** Everything the status bar shows, computed from the trajectory. */
export interface StatusState {
  /** The current run's request, as the person wrote it. */
  goal?: string;
  toolCalls: Record<string, number>;
  totalToolCalls: number;
  targetCalls: TargetCount[];
  /** Failures in a row per tool, counting from its latest call backwards (tools whose last call succeeded are absent). */
  consecutiveFailures: Record<string, number>;
  /** Calls that failed at least twice with identical arguments since they last succeeded. */
  repeatedFailures: RepeatedFailure[];
  todo: TodoItem[];
}

/**
 * Derives the status from the trajectory: the newest status checkpoint (left by a compaction) as
 * the starting point, then every tool call after it. Counts are of calls that have a result — the
 * same calls the loop numbers `Tool call #n`. Nothing is kept between calls, so a restarted agent,
 * or one given a compacted trajectory with its checkpoint, shows the same numbers. Pure.
 */
export function deriveStatusState(messages: readonly Message[], targets: readonly StatusBarTarget[] = []): StatusState {
  const checkpoint = findStatusCheckpoint(messages);
  const from = checkpoint ? checkpoint.index + 1 : 0;
  const toolCalls: Record<string, number> = { ...checkpoint?.data.toolCalls };
  const targetCalls: TargetCount[] = (checkpoint?.data.targetCalls ?? []).map((entry) => ({ ...entry }));
  const consecutiveFailures: Record<string, number> = {};
  const failuresByCall = new Map<string, RepeatedFailure>();

  for (const { call, result } of collectToolCalls(messages, from)) {
    if (result === undefined) continue;
    toolCalls[call.name] = (toolCalls[call.name] ?? 0) + 1;
    for (const target of targets) {
      if (target.tool !== call.name) continue;
      const raw = (call.arguments as Record<string, unknown> | undefined)?.[target.argument];
      if (raw === undefined || raw === null) continue;
      const value = typeof raw === "string" ? raw : canonicalJson(raw);
      const entry = targetCalls.find((candidate) => candidate.tool === target.tool && candidate.argument === target.argument && candidate.value === value);
      if (entry) entry.count++;
      else targetCalls.push({ tool: target.tool, argument: target.argument, value, count: 1 });
    }
    const callKey = `${call.name}\u0000${call.arguments === undefined ? call.argumentsText : canonicalJson(call.arguments)}`;
    if (result.isError) {
      consecutiveFailures[call.name] = (consecutiveFailures[call.name] ?? 0) + 1;
      const previous = failuresByCall.get(callKey);
      const kind = /Error \(([a-z_]+)\)/.exec(result.content.slice(0, 300))?.[1];
      failuresByCall.set(callKey, {
        tool: call.name,
        argumentsJson: call.arguments === undefined ? call.argumentsText : canonicalJson(call.arguments),
        failures: (previous?.failures ?? 0) + 1,
        ...(kind ? { kind } : {}),
      });
    } else {
      delete consecutiveFailures[call.name];
      failuresByCall.delete(callKey);
    }
  }

  const runStart = currentRunStart(messages);
  const goal = runStart >= 0 ? goalOf(messages[runStart] as UserMessage) : undefined;
  return {
    ...(goal !== undefined ? { goal } : {}),
    toolCalls,
    totalToolCalls: Object.values(toolCalls).reduce((sum, count) => sum + count, 0),
    targetCalls,
    consecutiveFailures,
    repeatedFailures: [...failuresByCall.values()].filter((entry) => entry.failures >= 2),
    todo: replayTodoList(messages, { initial: checkpoint?.data.todo ?? [], from }),
  };
}

/**
 * What the person asked for this run. A `/name args` message carries the skill's body after what
 * was typed (the harness expanded it, metadata says so): the goal is the typed command, not the body.
 */
function goalOf(message: UserMessage): string {
  const content = stripUserMetadata(message.content);
  const derived = message.meta.derived;
  if (derived?.kind !== "skill" || derived.via !== "slash") return content;
  const bodyStart = content.indexOf(`\n\n<skill name="${derived.name}"`);
  return bodyStart < 0 ? content : content.slice(0, bodyStart);
}
