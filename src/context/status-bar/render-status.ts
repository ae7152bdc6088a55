import type { StatusState } from "./derive-status-state.js";
import { formatClockLine } from "./format-timestamp.js";
import { compactJson, quoteExternal, quoteName } from "./quote-external.js";
import type { StatusBarSettings } from "./status-bar-settings.js";
import { statusCloseTag, statusOpenTag } from "./status-message.js";

/**
 * The status message: `<agent_status>` with short `key: value` lines, built only by code from the
 * derived state. Text that came from outside (the request, TODO items, argument values) is quoted
 * and truncated. Returns undefined when every section is switched off. Pure.
 */
export function renderStatus(state: StatusState, settings: StatusBarSettings, now: Date, placement: "tail" | "stored" = "stored"): string | undefined {
  const lines: string[] = [];
  if (settings.todo) lines.push(...todoLines(state));
  if (settings.counters) lines.push(...counterLines(state, settings));
  if (settings.detailedErrors) {
    for (const failure of state.repeatedFailures) {
      lines.push(
        `repeated_failure: ${quoteName(failure.tool)} ${compactJson(failure.argumentsJson)} failed ${failure.failures} times in a row` +
          `${failure.kind ? ` (${failure.kind})` : ""}; do not retry it unchanged`,
      );
    }
  }
  if (settings.systemState) {
    const environment = settings.environment;
    lines.push(`time: ${formatClockLine(now, settings.timeZone)}`);
    if (environment) {
      lines.push(`working_directory: ${environment.workingDirectory}`, `os: ${environment.os}`);
      if (environment.shell) lines.push(`shell: ${environment.shell}`);
      lines.push(`runtime: ${environment.runtime}`);
    }
    // Only in the tail: the lifetime is a setting of this run (--cache-ttl), so it is never frozen into the trajectory.
    if (placement === "tail" && settings.cacheLifetimeMs !== undefined) lines.push(`prompt_cache: ${formatLifetime(settings.cacheLifetimeMs)} lifetime`);
  }
  if (lines.length === 0) return undefined;
  return [statusOpenTag, "note: kept by the harness from this conversation (not written by the user); counts are exact", ...lines, statusCloseTag].join("\n");
}

function todoLines(state: StatusState): string[] {
  const lines = state.goal === undefined ? [] : [`goal: ${quoteExternal(state.goal, 200)}`];
  if (state.todo.length === 0) return [...lines, "todo: (none; for a task of 3 or more steps, plan it with rewrite_todo_list)"];
  const done = state.todo.filter((item) => item.status === "completed").length;
  const open = state.todo.filter((item) => item.status === "pending" || item.status === "in_progress").length;
  lines.push(`todo: ${done}/${state.todo.length} completed, ${open} open`);
  for (const item of state.todo) lines.push(`- [${quoteName(item.id)}] ${item.status} ${quoteExternal(item.content, 100)}`);
  return lines;
}

function counterLines(state: StatusState, settings: StatusBarSettings): string[] {
  const lines: string[] = [];
  const tools = Object.entries(state.toolCalls).sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0));
  if (tools.length > 0) {
    const perTool = tools.map(([tool, count]) => {
      const targets = state.targetCalls.filter((entry) => entry.tool === tool).map((entry) => `${entry.argument}=${quoteExternal(entry.value, 40)}: ${entry.count}`);
      return `${quoteName(tool)} ${count}${targets.length > 0 ? ` (${targets.join(", ")})` : ""}`;
    });
    lines.push(`tool_calls: ${state.totalToolCalls} total; ${perTool.join("; ")}`);
  } else {
    lines.push("tool_calls: 0");
  }
  for (const limit of settings.limits) {
    if (limit.argument === undefined) {
      lines.push(limitLine(`calls of ${limit.tool}`, state.toolCalls[limit.tool] ?? 0, limit.max));
      continue;
    }
    for (const entry of state.targetCalls) {
      if (entry.tool === limit.tool && entry.argument === limit.argument) {
        lines.push(limitLine(`calls to ${quoteExternal(entry.value, 40)} (${limit.tool} ${limit.argument})`, entry.count, limit.max));
      }
    }
  }
  const failing = Object.entries(state.consecutiveFailures).filter(([, count]) => count > 0);
  if (failing.length > 0) lines.push(`consecutive_failures: ${failing.map(([tool, count]) => `${quoteName(tool)} ${count}`).join(", ")}`);
  return lines;
}

/** The seed's wording: "Maximum calls to Xfinity reached (3/3)". */
function limitLine(what: string, count: number, max: number): string {
  if (count >= max) return `limit: Maximum ${what} reached (${count}/${max}); do not call again`;
  return `limit: ${what} ${count}/${max} used`;
}

/** 300000 → "5m", 3600000 → "1h", 86400000 → "24h", 90000 → "90s". */
export function formatLifetime(ms: number): string {
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000}h`;
  if (ms % 60_000 === 0) return `${ms / 60_000}m`;
  return `${Math.round(ms / 1000)}s`;
}
