// The agent status bar (seed, "Agent 状态栏"; experiments 2-8 and 2-9): event metadata frozen into
// results, a code-built `<agent_status>` message at the end of every request, and the cost model
// that chooses how it is updated. Pure functions of (trajectory, settings, clock).
export { createStatusBar, type StatusBar } from "./create-status-bar.js";
export { createTodoTools, formatTodoList } from "./create-todo-tools.js";
export {
  resolveStatusBarSettings,
  type StatusBarLimit,
  type StatusBarMode,
  type StatusBarOptions,
  type StatusBarSettings,
  type StatusBarTarget,
} from "./status-bar-settings.js";
export { chooseStatusBarMode, type StatusBarModeDecision, type StatusBarModeInputs } from "./choose-status-bar-mode.js";
export { measureModeInputs } from "./measure-mode-inputs.js";
export { deriveStatusState, type RepeatedFailure, type StatusState, type TargetCount } from "./derive-status-state.js";
export { renderStatus } from "./render-status.js";
export { annotateToolResult } from "./annotate-tool-result.js";
export { annotateUserMessage, stripUserMetadata } from "./annotate-user-message.js";
export { describeToolError, type DescribeToolErrorOptions } from "./describe-tool-error.js";
export { describeSchemaExpectation } from "./describe-schema-expectation.js";
export { createStatusCheckpointMessage, findStatusCheckpoint, type StatusCheckpointData } from "./status-checkpoint.js";
export type { SystemState } from "./system-state.js";
export { formatTimestamp, formatClockLine, formatDuration } from "./format-timestamp.js";
export { quoteExternal } from "./quote-external.js";
export { isStatusMessage, isPersonMessage, currentRunStart, runProgress, createStatusMessage, statusOpenTag, statusCloseTag } from "./status-message.js";
export { collectToolCalls, type ToolCallRecord } from "./tool-call-history.js";
export {
  rewriteTodoList,
  updateTodoStatus,
  isTodoStatus,
  todoStatuses,
  rewriteTodoListToolName,
  updateTodoStatusToolName,
  type TodoItem,
  type TodoResult,
  type TodoStatus,
} from "./todo-list.js";
export { replayTodoList, type ReplayTodoListOptions } from "./replay-todo-list.js";
