// Keeping instructions and data apart — source tags on external content, the neutraliser, screening,
// role discipline, and the runtime guard whose approvals bind to exact calls. Public on `ctxkit/policies`.
export * from "../context/external-content/index.js";
export { createRuntimeGuard, type GuardedCall, type GuardVerdict, type RuntimeGuard, type RuntimeGuardContext, type RuntimeGuardOptions } from "./create-runtime-guard.js";
export { describeTaintFinding, findTaint, type TaintFinding, type TaintInput } from "./find-taint.js";
export { hashToolCall } from "./hash-tool-call.js";
export { defaultLeakChars, findSystemPromptLeak, type SystemPromptLeak } from "./find-system-prompt-leak.js";
export { createRuntimeGuardPolicy, runtimeGuardPolicyName } from "./create-runtime-guard-policy.js";
export { createLeakWithholding, leakWithholdingPolicyName } from "./create-leak-withholding.js";
export { createProtectedPaths, protectedPathsPolicyName, type ProtectedPathsOptions } from "./create-protected-paths.js";
export { describeContextTaint, findContextTaint, type ContextTaintSource } from "./context-taint.js";
