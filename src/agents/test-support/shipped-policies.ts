import { createBudget } from "../../context/budget/create-budget.js";
import { createBudgetPolicy } from "../../context/budget/create-budget-policy.js";
import { createBudgetStatus } from "../../context/budget/create-budget-status.js";
import { createCompression, compressionPolicyNames } from "../../context/compression/create-compression-policy.js";
import { createDeterministicSummarizer } from "../../context/compression/deterministic-summarizer.js";
import type { ContextPolicy } from "../../context/context-policy.js";
import { createRoleDiscipline } from "../../context/external-content/create-role-discipline.js";
import { createSourceTags } from "../../context/external-content/create-source-tags.js";
import type { PolicyInheritance } from "../../context/policy-gates.js";
import { createInstructionsAnnouncer } from "../../context/project-instructions/create-instructions-announcer.js";
import { createStatusBar } from "../../context/status-bar/create-status-bar.js";
import { createMcpPolicy } from "../../mcp/create-mcp-policy.js";
import { createLeakWithholding } from "../../security/create-leak-withholding.js";
import { createProtectedPaths } from "../../security/create-protected-paths.js";
import { createRuntimeGuardPolicy } from "../../security/create-runtime-guard-policy.js";
import { createSkillsPolicy } from "../../skills/create-skills-policy.js";
import { getTokenCounter } from "../../tokens/get-token-counter.js";
import { createNotes } from "../../tools/notes/create-notes.js";
import { createRepeatedCallLimit } from "../../tools/create-repeated-call-limit.js";
import { createToolApprovals } from "../../tools/create-tool-approvals.js";
import { createToolOutputCap } from "../../tools/create-tool-output-cap.js";
import { createToolSearchPolicy } from "../../tools/search/create-tool-search-policy.js";
import { defineTool } from "../../tools/tool.js";
import type { Message } from "../../types/index.js";
import { createClaudeCodePolicy } from "../../bench/replay/comparators/claude-code-policy.js";
import { createNonePolicy } from "../../bench/replay/comparators/none-policy.js";
import { createOpencodePolicy } from "../../bench/replay/comparators/opencode-policy.js";
import { createSlidingWindowPolicy } from "../../bench/replay/comparators/sliding-window-policy.js";
import { createFloorPolicy } from "../../bench/replay/comparators/floor-policy.js";
import { createCodexPolicy } from "../../bench/replay/comparators/codex-policy.js";
import { createDeepagentsPolicy } from "../../bench/replay/comparators/deepagents-policy.js";
import { createGeminiCliPolicy } from "../../bench/replay/comparators/gemini-cli-policy.js";
import { createPiPolicy } from "../../bench/replay/comparators/pi-policy.js";
import { createAnthropicClearToolUsesPolicy } from "../../bench/replay/comparators/anthropic-clear-tool-uses-policy.js";
import { createAnthropicClearThinkingPolicy } from "../../bench/replay/comparators/anthropic-clear-thinking-policy.js";
import { createServerCompactionPolicy as createServerCompactionComparator } from "../../bench/replay/comparators/server-compaction-policy.js";
import { createServerCompactionPolicy } from "../../context/server-compaction/server-compaction-policy.js";
import { createResumeAfterCompaction } from "../../context/server-compaction/resume-after-compaction.js";
import { createResponsesCompactPolicy } from "../../context/server-compaction/responses-compact-policy.js";
import { createSharedBudgetPolicy } from "../../durable/create-shared-budget-policy.js";

/** One shipped policy: where it is made, how a child inherits it, and a fresh instance for the suite. */
export interface ShippedPolicy {
  /** The policy's `name`. */
  name: string;
  /** The file that makes it (the test checks every file that makes a policy is listed here). */
  file: string;
  inherit: PolicyInheritance;
  create(workspace: string): ContextPolicy;
  /** Policies of one group are alternatives (one compression policy per agent): the suite does not compose them with each other. */
  group?: "compression";
  /** The policy itself set to compact soon (a compression policy): the compaction check runs it instead of adding another. */
  createCompacting?(): ContextPolicy;
  /** Checks of the contract suite this policy skips, each with its reason. */
  skips?: Partial<Record<"pure" | "resume" | "breaks" | "composes" | "compaction", string>>;
}

const estimator = getTokenCounter("estimate");
const countMessage = (message: Message) => estimator.count(JSON.stringify(message));
const lookupOrder = defineTool<{ id: string }>({
  name: "lookup_order",
  description: "Look up an order by its id.",
  parameters: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
  deferred: true,
  execute: async ({ id }) => `order ${id}: shipped`,
});

const compressionFiles: Record<string, string> = {
  ctxkit: "src/context/compression/layered-policy.ts",
  combined: "src/context/compression/strategies/combined-policy.ts",
  individual: "src/context/compression/strategies/individual-policy.ts",
  windowed: "src/context/compression/strategies/windowed-policy.ts",
  "context-aware": "src/context/compression/strategies/context-aware-policy.ts",
  "context-aware-citations": "src/context/compression/strategies/context-aware-policy.ts",
};

const writeTimeOnly = new Set<string>(["individual", "context-aware", "context-aware-citations"]);

/**
 * Every context policy ctxkit ships. Add a new one here: it then gets the inheritance check and
 * the whole contract suite (`policy-contract.test.ts`).
 */
export const shippedPolicies: readonly ShippedPolicy[] = [
  { name: "budget", file: "src/context/budget/create-budget-policy.ts", inherit: "copy", create: () => createBudgetPolicy(createBudget({ session: { tokens: 10_000_000 } })) },
  // The scope's row as a worker reads it (a fifth spent, no crossing pending): the policy itself holds no state.
  { name: "shared-budget", file: "src/durable/create-shared-budget-policy.ts", inherit: "share", create: () => createSharedBudgetPolicy({ scope: "team", readShare: async () => ({ share: 0.2, at: 0 }), now: () => 0, takeCrossings: () => [] }) },
  { name: "budget-status", file: "src/context/budget/create-budget-status.ts", inherit: "never", create: () => createBudgetStatus(createBudget({ session: { tokens: 10_000_000 } })) },
  ...compressionPolicyNames
    .filter((name) => name !== "none")
    .map((name): ShippedPolicy => ({
      name,
      file: compressionFiles[name]!,
      inherit: "never",
      group: "compression",
      create: () => createCompression({ policy: name, contextWindow: 200_000 }),
      createCompacting: () => createCompression({ policy: name, contextWindow: 6_000 }),
      ...(writeTimeOnly.has(name) ? { skips: { compaction: "it compresses each result once, when it is written, and never replaces part of the trajectory: there is no compaction of its own to survive" } } : {}),
    })),
  { name: "source-tags", file: "src/context/external-content/create-source-tags.ts", inherit: "share", create: () => createSourceTags() },
  { name: "role-discipline", file: "src/context/external-content/create-role-discipline.ts", inherit: "share", create: () => createRoleDiscipline() },
  { name: "project-instructions", file: "src/context/project-instructions/create-instructions-announcer.ts", inherit: "never", create: () => createInstructionsAnnouncer({ takeChange: () => undefined }) },
  { name: "status-bar", file: "src/context/status-bar/create-status-bar.ts", inherit: "never", create: () => createStatusBar({ timestamps: false }) },
  { name: "mcp", file: "src/mcp/create-mcp-policy.ts", inherit: "never", create: () => createMcpPolicy({ onToolsChanged: () => () => undefined }) },
  { name: "skills", file: "src/skills/create-skills-policy.ts", inherit: "copy", create: () => createSkillsPolicy({ skills: [], warnings: [] }) },
  { name: "notes", file: "src/tools/notes/create-notes.ts", inherit: "never", create: (workspace) => createNotes({ path: `${workspace}/NOTES.md` }) },
  { name: "runtime-guard", file: "src/security/create-runtime-guard-policy.ts", inherit: "share", create: () => createRuntimeGuardPolicy() },
  { name: "protected-paths", file: "src/security/create-protected-paths.ts", inherit: "share", create: (workspace) => createProtectedPaths({ workspace, places: [{ path: `${workspace}/ctxkit.config.json`, what: "the config" }] }) },
  { name: "leak-withholding", file: "src/security/create-leak-withholding.ts", inherit: "share", create: () => createLeakWithholding() },
  { name: "repeated-call-limit", file: "src/tools/create-repeated-call-limit.ts", inherit: "copy", create: () => createRepeatedCallLimit() },
  { name: "tool-output-cap", file: "src/tools/create-tool-output-cap.ts", inherit: "share", create: () => createToolOutputCap() },
  { name: "tool-approvals", file: "src/tools/create-tool-approvals.ts", inherit: "share", create: () => createToolApprovals({ allow: ["write_file"] }) },
  { name: "tool-search", file: "src/tools/search/create-tool-search-policy.ts", inherit: "copy", create: () => createToolSearchPolicy([lookupOrder]) },
  {
    name: "claude-code",
    file: "src/bench/replay/comparators/claude-code-policy.ts",
    inherit: "never",
    create: () => createClaudeCodePolicy({ contextWindow: 200_000, countTokens: (messages) => messages.reduce((sum, message) => sum + estimator.count(JSON.stringify(message)), 0), counter: estimator, summarizer: createDeterministicSummarizer() }),
  },
  {
    name: "opencode",
    file: "src/bench/replay/comparators/opencode-policy.ts",
    inherit: "never",
    create: () => createOpencodePolicy({ contextWindow: 200_000, countMessage: (message) => estimator.count(JSON.stringify(message)), summarizer: createDeterministicSummarizer() }),
  },
  { name: "sliding-window", file: "src/bench/replay/comparators/sliding-window-policy.ts", inherit: "never", create: () => createSlidingWindowPolicy() },
  { name: "floor", file: "src/bench/replay/comparators/floor-policy.ts", inherit: "never", create: () => createFloorPolicy() },
  { name: "codex", file: "src/bench/replay/comparators/codex-policy.ts", inherit: "never", create: () => createCodexPolicy({ contextWindow: 200_000, counter: estimator, summarizer: createDeterministicSummarizer() }) },
  { name: "deepagents", file: "src/bench/replay/comparators/deepagents-policy.ts", inherit: "never", create: () => createDeepagentsPolicy({ contextWindow: 200_000, countMessage, summarizer: createDeterministicSummarizer() }) },
  {
    name: "gemini-cli",
    file: "src/bench/replay/comparators/gemini-cli-policy.ts",
    inherit: "never",
    create: () => createGeminiCliPolicy({ contextWindow: 200_000, countTokens: (messages) => messages.reduce((sum, message) => sum + countMessage(message), 0), countMessage, counter: estimator, summarizer: createDeterministicSummarizer() }),
  },
  { name: "pi", file: "src/bench/replay/comparators/pi-policy.ts", inherit: "never", create: () => createPiPolicy({ contextWindow: 200_000, countMessage, summarizer: createDeterministicSummarizer() }) },
  { name: "none", file: "src/bench/replay/comparators/none-policy.ts", inherit: "never", create: () => createNonePolicy() },
  {
    name: "anthropic-clear-tool-uses",
    file: "src/bench/replay/comparators/anthropic-clear-tool-uses-policy.ts",
    inherit: "never",
    create: () => createAnthropicClearToolUsesPolicy({ contextWindow: 200_000, countMessage, countRequest: (messages) => messages.reduce((sum, message) => sum + countMessage(message), 0) }),
  },
  { name: "anthropic-clear-thinking", file: "src/bench/replay/comparators/anthropic-clear-thinking-policy.ts", inherit: "never", create: () => createAnthropicClearThinkingPolicy() },
  {
    name: "anthropic-compaction",
    file: "src/bench/replay/comparators/server-compaction-policy.ts",
    inherit: "never",
    create: () => createServerCompactionComparator({ vendor: "anthropic", contextWindow: 200_000, summarizer: createDeterministicSummarizer(), countRequest: (messages) => messages.reduce((sum, message) => sum + countMessage(message), 0) }),
  },
  { name: "server-compaction", file: "src/context/server-compaction/server-compaction-policy.ts", inherit: "share", create: () => createServerCompactionPolicy() },
  { name: "resume-after-compaction", file: "src/context/server-compaction/resume-after-compaction.ts", inherit: "share", create: () => createResumeAfterCompaction() },
  {
    name: "responses-compact",
    file: "src/context/server-compaction/responses-compact-policy.ts",
    inherit: "never",
    // Never asked to compact here, so the compact call is never made.
    create: () => createResponsesCompactPolicy({ provider: { compact: () => Promise.reject(new Error("not asked to compact")) } }),
  },
];
