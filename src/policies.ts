// The `ctxkit/policies` entry: every shipped context policy — what shapes or gates what the model
// sees — plus the prompt builder and linters. Pass policies to `createAgent({ context: [...] })`;
// `composeContextPolicies` (on `ctxkit`) orders them. `createCompression` and `createStatusBar`
// are on `ctxkit` too.
export {
  createCompression,
  createCompressionPolicy,
  compressionPolicyNames,
  createDeterministicSummarizer,
  createModelSummarizer,
  type CompressionOptions,
  type CompressionPolicy,
  type CompressionPolicyName,
  type CreateCompressionOptions,
  type ModelSummarizerOptions,
  type Summarizer,
} from "./context/compression/index.js";
export { createStatusBar, chooseStatusBarMode, type StatusBar, type StatusBarOptions, type StatusBarModeDecision, type StatusBarModeInputs } from "./context/status-bar/index.js";
export { detectSystemState, type SystemState } from "./agents/detect-system-state.js";
export { createBudget, createBudgetPolicy, createBudgetStatus, type BudgetOptions, type BudgetPolicy, type BudgetPolicyOptions } from "./context/budget/index.js";
export { sessionSpend, type RecordedCall } from "./session/session-spend.js";
export { storedPromptParts, type StoredPromptParts } from "./session/stored-prompt-parts.js";
export { createNotes, type NotesOptions, type NotesPolicy, type NotesReplay, type NotesSnapshot } from "./tools/notes/index.js";
export { createSkills, loadSkills, lintSkill, findStartCatalog, type CreateSkillsOptions, type LoadedSkillsPolicy, type LoadSkillsOptions, type Skill, type SkillCatalog, type SkillLintFinding } from "./skills/index.js";
export { createToolSearchPolicy, type ToolSearchPolicy, type ToolSearchPolicyOptions } from "./tools/search/index.js";
export { resolveDeferredTools, type DeferredTools, type DeferredToolsInput } from "./tools/search/resolve-deferred-tools.js";
export { inheritPolicies } from "./context/compose-policy-gates.js";
export { createSourceTags, createRoleDiscipline, createRuntimeGuard, createRuntimeGuardPolicy, createLeakWithholding, type SourceTagsOptions, type SourceTagsPolicy, type RuntimeGuard, type RuntimeGuardOptions } from "./security/index.js";
export { createRepeatedCallLimit } from "./tools/create-repeated-call-limit.js";
export { createToolOutputCap } from "./tools/create-tool-output-cap.js";
export { createToolApprovals, type ToolApprovalsOptions } from "./tools/create-tool-approvals.js";
export { definePrompt, lintPrompt, lintToolDefinitions, type DefinedPrompt, type PromptDefinition, type PromptFinding, type ToolLintFinding } from "./prompts/index.js";
export { createServerCompactionPolicy } from "./context/server-compaction/server-compaction-policy.js";
export { createResumeAfterCompaction } from "./context/server-compaction/resume-after-compaction.js";
export { createResponsesCompactPolicy, type ResponsesCompactPolicy, type ResponsesCompactPolicyOptions } from "./context/server-compaction/responses-compact-policy.js";
