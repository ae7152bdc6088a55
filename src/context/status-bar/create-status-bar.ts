import type { Message, UserMessage } from "../../types/index.js";
import type { ContextEdit, ContextPolicy, ContextState, ToolResultInfo } from "../context-policy.js";
import { createTodoTools } from "./create-todo-tools.js";
import { annotateToolResult } from "./annotate-tool-result.js";
import { annotateUserMessage } from "./annotate-user-message.js";
import { chooseStatusBarMode, type StatusBarModeDecision } from "./choose-status-bar-mode.js";
import { deriveStatusState } from "./derive-status-state.js";
import { describeToolError } from "./describe-tool-error.js";
import { measureModeInputs } from "./measure-mode-inputs.js";
import { renderStatus } from "./render-status.js";
import { createStatusCheckpointMessage, statusBarPolicyName } from "./status-checkpoint.js";
import { resolveStatusBarSettings, type StatusBarOptions, type StatusBarSettings } from "./status-bar-settings.js";
import { createStatusMessage, currentRunStart, isStatusMessage, runProgress } from "./status-message.js";

/**
 * The agent status bar, a context policy: `createAgent({ ..., context: [createStatusBar()] })` is all
 * it needs. It contributes the TODO tools (when `todo` is on), stamps user messages and tool
 * results once, writes the `<agent_status>` tail (replace) or stores it before each call (append),
 * and carries its counts across compactions through `checkpoint`.
 */
export interface StatusBar extends ContextPolicy {
  readonly settings: StatusBarSettings;
  /** The status text for a trajectory at a time (what the tail or the stored status would say). */
  render(messages: readonly Message[], now: Date): string | undefined;
  /** A checkpoint message carrying counts and the TODO list across a compaction (see createStatusCheckpointMessage). */
  checkpoint(messages: readonly Message[], now: Date, id: string): UserMessage;
  /** The latest `auto` decision, with its inputs (also passed to `onDecision`). */
  readonly lastDecision: StatusBarModeDecision | undefined;
}

/**
 * Creates the status bar. Everything it shows is derived from the trajectory on each call — the
 * policy keeps no counts, lists or modes of its own — so a resumed session shows the same status.
 *
 * Modes: `replace` sends the status as the tail (the prefix guard excludes the tail, so no break);
 * `append` stores a status before every call and never removes it (append-only, so no break either);
 * `auto` decides with `chooseStatusBarMode` before each call of a run that is still appending (see
 * `modeFor`), reading its earlier choice back from the trajectory (a status stored in this run).
 *
 * The status is a user-role message, as the seed prescribes (a system message at the end is refused by
 * templates such as Qwen3's: "System message must be at the beginning"). Trade-off: Qwen3's template
 * shows `<think>` reasoning only for assistant turns after the last user query, and the status is
 * such a query — so earlier reasoning of the run is not shown back to the model. The upside is that
 * the rendering of past turns no longer changes when the next real user message arrives.
 */
export function createStatusBar(options: StatusBarOptions = {}): StatusBar {
  const settings = resolveStatusBarSettings(options);
  let lastDecision: StatusBarModeDecision | undefined;
  let prefixTools = settings.tools;

  const render = (messages: readonly Message[], now: Date, placement: "tail" | "stored" = "stored") => renderStatus(deriveStatusState(messages, settings.targets), settings, now, placement);

  /**
   * Whether this call's status is stored (append) or sent as the tail (replace). `auto` decides
   * before every call (`decide`), from the trajectory alone: append while keeping this status is
   * cheaper than replacing it, then replace — as the run grows, so does N, and the switch happens
   * at most once per run (no break either way: stored statuses stay, new ones go to the tail). The
   * tail reads the decision back: a status stored for this call means append.
   */
  const modeFor = (messages: readonly Message[], status: string | undefined, decide: boolean): "append" | "replace" | "off" => {
    if (status === undefined || settings.mode === "off") return "off";
    if (settings.mode !== "auto") return settings.mode;
    if (!decide) return messages.length > 0 && isStatusMessage(messages.at(-1)!) ? "append" : "replace";
    const progress = runProgress(messages);
    if (progress.calledModel && !appendedLastCall(messages)) return "replace";
    const decision = chooseStatusBarMode(measureModeInputs(messages, status, settings));
    // Told at a run's first call and when the run switches from append to replace.
    if (!progress.calledModel || decision.mode !== "append") options.onDecision?.(decision);
    lastDecision = decision;
    return decision.mode;
  };

  return {
    name: statusBarPolicyName,
    // The status bar describes the parent's trajectory; a child's TODO list and counts are not the parent's.
    inherit: "never",
    // After compression and other policies: it stamps the results they produced and describes the context they left.
    order: 100,
    tools: settings.todo ? createTodoTools() : [],
    settings,
    processToolResult(result, info: ToolResultInfo) {
      const detailed = settings.detailedErrors
        ? describeToolError(result, info, {
            ...(settings.environment ? { workingDirectory: settings.environment.workingDirectory } : {}),
            ...(prefixTools ? { tools: prefixTools } : {}),
          })
        : result;
      return annotateToolResult(detailed, info, settings);
    },
    prepareContext(state: ContextState): ContextEdit[] {
      // The prefix is frozen for the agent's life: configuration learned on the first call, not state.
      prefixTools ??= state.prefix.tools;
      if (settings.mode === "off" || settings.mode === "replace") return [];
      // A retry of the same call (after a context overflow) already has its status at the end.
      if (state.messages.length > 0 && isStatusMessage(state.messages.at(-1)!)) return [];
      const status = render(state.messages, state.now);
      if (status === undefined || modeFor(state.messages, status, true) !== "append") return [];
      return [{ type: "append", messages: [createStatusMessage(status, state.messages.length, state.now)] }];
    },
    tail(state) {
      if (settings.mode === "off" || settings.mode === "append") return undefined;
      const status = render(state.trajectory, state.now, "tail");
      return modeFor(state.trajectory, status, false) === "replace" ? status : undefined;
    },
    processUserMessage(message, info) {
      return settings.timestamps ? annotateUserMessage(message, info.trajectory, info.now, settings.timeZone) : message;
    },
    render,
    checkpoint(messages, now, id) {
      const state = deriveStatusState(messages, settings.targets);
      return createStatusCheckpointMessage({ toolCalls: state.toolCalls, targetCalls: state.targetCalls, todo: state.todo }, id, now);
    },
    get lastDecision() {
      return lastDecision;
    },
  };
}

/** Whether the run's latest model call had a stored status just before it (the run is appending). */
function appendedLastCall(messages: readonly Message[]): boolean {
  const start = currentRunStart(messages);
  for (let index = messages.length - 1; index > start; index--) {
    if (messages[index]!.role === "assistant") return index > 0 && isStatusMessage(messages[index - 1]!);
  }
  return false;
}
