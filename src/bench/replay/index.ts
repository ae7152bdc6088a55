// `ctxkit replay`: recorded runs replayed through context policies, compared on cost, overflows
// and reference recall.
export { runReplayBench, type ReplayBenchOptions, type ReplayReport } from "./replay-bench.js";
export { replayRun, type ReplayRunOptions, type ReplayedCall, type ReplayedRun } from "./replay-run.js";
export { loadRecordedRuns, type LoadRecordedRunsOptions, type LoadedRuns } from "./load-recorded-runs.js";
export { toRecordedRun, type RecordedCall, type RecordedRun } from "./recorded-run.js";
export { convertMiniSweAgentCommands, bashToolDefinition } from "./convert-mini-swe-agent-commands.js";
export { extractIdentifiers, matchIdentifiers, type IdentifierKind, type IdentifierMatch } from "./extract-identifiers.js";
export { findReferencePairs, type ReferencePair } from "./reference-pairs.js";
export { createPromptMeter, type PromptMeter } from "./prompt-meter.js";
export { replayPolicies, resolveReplayPolicyNames, type ReplayPolicyFactory, type ReplayPolicyOptions } from "./replay-policies.js";
export { summarizePolicy, summarizeReplayedRun, type PolicySummary, type RunSummary } from "./replay-summary.js";
export { formatPolicyTable, formatRunTable } from "./format-replay-table.js";
export { toEmittedRequest, type EmittedRequest, type OpenAIChatMessage } from "./to-emitted-request.js";
export { createSlidingWindowPolicy } from "./comparators/sliding-window-policy.js";
export { createFloorPolicy } from "./comparators/floor-policy.js";
export { createClaudeCodePolicy } from "./comparators/claude-code-policy.js";
export { createOpencodePolicy } from "./comparators/opencode-policy.js";
export { halfOf, replayHalves, type ReplayHalf } from "./split-runs.js";
export { createNonePolicy } from "./comparators/none-policy.js";
