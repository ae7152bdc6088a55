import type { CompressionPolicyName } from "../context/compression/compression-policy-names.js";
import type { McpServersConfig } from "../mcp/mcp-config.js";
import type { McpWarning } from "../mcp/mcp-warning.js";
import type { DeferToolsMode } from "../tools/search/apply-defer-tools.js";
import type { ToolSearchEmbeddingSettings } from "./create-tool-search-embedder.js";
import type { BudgetMode } from "../types/index.js";
import type { CacheRetention, CacheTtl, NotesLocation, ReasoningEffort, ReasoningRoundTripMode, ProviderName, StatusBarMode, VendorName } from "./config-values.js";

/** Which parts of the agent status bar are on and how it is sent (see `createStatusBar`). */
export interface StatusBarConfig {
  mode: StatusBarMode;
  timestamps: boolean;
  counters: boolean;
  todo: boolean;
  detailedErrors: boolean;
  systemState: boolean;
}

export interface UntrustedContentConfig {
  /** `trustWorkspace`: workspace results are not tagged and do not make the context untrusted. */
  trustWorkspace: boolean;
  /** The user's `allowUnderTaint`: tools that run without a question while untrusted content is in the context. */
  allowUnderTaint: string[];
  /** Tools whose results count as external whatever they declare (`externalTools`). */
  externalTools: string[];
  /** The system-prompt section saying external content is data (`untrustedContentNotice`, default true). */
  notice: boolean;
}

/** The session's limits (`budgetTokens`, `budgetCost`, `budgetMode`). */
export interface BudgetConfig {
  tokens?: number;
  costUsd?: number;
  mode: BudgetMode;
}

/** The MCP servers an agent connects to, and those left out (a workspace's stdio servers), for the person. */
export interface McpConfig {
  servers: McpServersConfig;
  warnings: McpWarning[];
}

/**
 * Everything an agent is built from, resolved: defaults applied, places absolute. The CLI resolves
 * it from flags, variables and config files; `createAgentFromConfig` builds the agent from it.
 */
export interface AgentConfig {
  provider: ProviderName;
  vendor: VendorName;
  baseURL?: string;
  model?: string;
  /** The GGUF file of the llama provider (embedded engine). */
  modelPath?: string;
  apiKey?: string;
  workspace: string;
  dataDir: string;
  /** Sessions in PostgreSQL (`databaseUrl`) instead of `<dataDir>/sessions`. */
  databaseUrl?: string;
  /** The user's config file, guarded against commands like the workspace's (absent: only the workspace's is). */
  userConfigPath?: string;
  /** Provider time limits (`requestTimeout`, `idleTimeout`), in milliseconds. */
  timeouts: { firstByteMs?: number; idleMs?: number };
  /**
   * Prompt caching: `ttl` (Anthropic's cache lifetime: 5m or 1h, writes at 1.25× or 2×) and `key`
   * (OpenAI's `prompt_cache_key`, the `x-session-affinity` header for other OpenAI-compatible
   * servers). Without a key the session's id is used.
   */
  cache: { ttl: CacheTtl; key?: string; retention?: CacheRetention };
  /** The Responses API's `reasoning.effort` or Anthropic's `output_config.effort`, one of that provider's own values. */
  reasoningEffort?: ReasoningEffort;
  /** The Responses API's server-side compaction threshold, in tokens (openai-responses only). */
  compactThreshold?: number;
  /** Overrides the vendor's rule for sending `reasoning_content` back (OpenAI-compatible only). */
  reasoningRoundTrip?: ReasoningRoundTripMode;
  maxIterations: number;
  contextWindow?: number;
  /** The context compression policy (default `ctxkit`, the layered pipeline). */
  compression: CompressionPolicyName;
  /** Built-in tools to offer; `bash` only when named. */
  tools: string[];
  statusBar: StatusBarConfig;
  /** Whether the agent gets the `task` tool with the explore and fork sub-agents. */
  subAgents: boolean;
  /** web_fetch may fetch pages on this machine. */
  allowLoopbackFetch: boolean;
  /** How content from outside is handled (source tags, the runtime guard; see ctxkit/policies). */
  untrustedContent: UntrustedContentConfig;
  /**
   * Which confirming tool calls run without asking (the tool-approvals policy): `allow` (the CLI
   * reads it from the user's config only) and `approveAll` (`yes`). A call naming ctxkit.config.json
   * and a call the runtime guard flagged are asked about even so.
   */
  approvals: { allow: string[]; approveAll: boolean };
  /** Skill directories (absolute), searched before the standard places. */
  skillDirectories: string[];
  mcp: McpConfig;
  /** Which tools are kept out of `tools` and found with tool_search (absent: none but those marked). */
  deferTools?: DeferToolsMode;
  /** Semantic tool search's embedding model (absent: words only); see `createToolSearchEmbedder`. */
  toolSearchEmbeddings?: ToolSearchEmbeddingSettings;
  /** Where the notes tools keep their file (default `session`). */
  notes: NotesLocation;
  /** The session's limits; absent when no limit is set. */
  budget?: BudgetConfig;
  /** Sampling settings. */
  temperature?: number;
  maxOutputTokens?: number;
  /** The base system prompt: its text, or `@<absolute file>` (default: ctxkit's coding-agent prompt). */
  system?: string;
  /** Whether AGENTS.md / CLAUDE.md go into the system prompt. */
  projectInstructions: boolean;
}
