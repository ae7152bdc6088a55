import { isInsideFolder } from "./is-inside-folder.js";
import { join } from "node:path";
import { protectFilesAround, type RestoredReport } from "../tools/builtin/protected-files.js";
import { prepareDataDirectory } from "../session/private-storage.js";
import type { Agent } from "../loop/create-agent.js";
import { assembleAgent, type StartedSessionView } from "../agents/assemble-agent.js";
import type { AgentOptions, ToolCallDecision, ToolCallInfo } from "../loop/agent-options.js";
import { createAnthropic } from "../providers/anthropic/index.js";
import { createLlama } from "../providers/llama/index.js";
import { createOpenAICompatible } from "../providers/openai-compatible/index.js";
import { createOpenAIResponses } from "../providers/openai-responses/index.js";
import type { Provider } from "../providers/provider.js";
import { createSessionStore, type SessionStore, type SessionWriter, type SessionWarning } from "../session/index.js";
import { createWebFetchTool, createWorkspaceTools } from "../tools/builtin/index.js";
import type { Tool } from "../tools/tool.js";
import { type SystemPrompt, ConfigError } from "../types/index.js";
import type { ResolvedConfig } from "./resolve-config.js";
import { createStatusBar, type StatusBar, type StatusBarModeDecision } from "../context/status-bar/index.js";
import type { ContextPolicy } from "../context/context-policy.js";
import { detectSystemState } from "../agents/detect-system-state.js";
import { createFileBlobStore } from "../session/blob-store.js";
import { findModelPricing } from "../session/pricing.js";
import { createCompressionFromConfig } from "./create-compression-from-config.js";
import type { CompressionPolicy } from "../context/compression/index.js";
import { createSkills, type LoadedSkillsPolicy } from "../skills/index.js";
import { readRecentSkillUse } from "./skill-use-record.js";
import { connectMcpServers, createMcpPolicy, type McpWarning } from "../mcp/index.js";
import type { LateToolSet } from "../tools/search/late-tool-set.js";
import { createBudgetPolicy, createBudgetStatus } from "../context/budget/index.js";
import { checkBudgetPricing, createBudgetFromFlags, type CliBudgetSettings, type CliBudgetContext } from "./budget-from-flags.js";
import { createNotesFromFlag, type NotesLocation } from "./notes-from-flag.js";
import { createTaskToolFromConfig } from "./create-task-tool-from-config.js";
import type { ChildRunObserver } from "../agents/run-sub-agent.js";
import { createUntrustedContentFromConfig } from "./create-untrusted-content-from-config.js";

export const defaultSystemPrompt = `You are ctxkit, a coding agent working in the user's workspace through tools.
Read files before you change them, keep edits minimal, prefer searching (grep, glob) over reading whole large files,
and verify your work. When you are done, answer with a short summary of what you did and found.`;

export function createProviderFromConfig(config: ResolvedConfig, transport: { fetch?: typeof globalThis.fetch } = {}): Provider {
  if (config.provider === "llama") {
    if (!config.modelPath) throw new ConfigError("option_invalid", "The llama provider needs a model file. Pass --model-path <file.gguf> or set CTXKIT_MODEL_PATH.");
    return createLlama({ modelPath: config.modelPath, ...(config.model ? { model: config.model } : {}), ...(config.contextWindow ? { contextSize: config.contextWindow } : {}) });
  }
  if (!config.model) {
    throw new ConfigError(
      "model_missing",
      "No model is set. Pass --model <name> (e.g. --model qwen3:8b for Ollama), set CTXKIT_MODEL, or add \"model\" to ctxkit.config.json.",
    );
  }
  // The cache key in force: --cache-key, else the session's id (read on each call, so a new session's id counts once it exists).
  const cacheKey = () => config.cache.key ?? config.cache.sessionId ?? config.sessionId;
  if (config.provider === "openai-responses") {
    return createOpenAIResponses({
      model: config.model,
      timeouts: config.timeouts,
      promptCacheKey: cacheKey,
      ...(config.apiKey ? { apiKey: config.apiKey } : {}),
      ...(config.baseURL ? { baseURL: config.baseURL } : {}),
      ...transport,
    });
  }
  if (config.provider === "anthropic") {
    return createAnthropic({
      model: config.model,
      timeouts: config.timeouts,
      cacheTtl: config.cache.ttl,
      ...(config.apiKey ? { apiKey: config.apiKey } : {}),
      ...(config.baseURL ? { baseURL: config.baseURL } : {}),
      ...transport,
    });
  }
  return createOpenAICompatible({
    vendor: config.vendor,
    model: config.model,
    timeouts: config.timeouts,
    cacheKey,
    ...(config.apiKey ? { apiKey: config.apiKey } : {}),
    ...(config.baseURL ? { baseURL: config.baseURL } : {}),
    ...transport,
  });
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tools of any argument type live in one list
export function createToolsFromConfig(config: ResolvedConfig, onProtectedFilesRestored?: (report: RestoredReport) => void): Tool<any>[] {
  // bash streams an over-budget output to the data directory, where the model can read the cut middle.
  const available = [
    ...createWorkspaceTools({ workspace: config.workspace, enableBash: config.tools.includes("bash"), bashSpillDirectory: join(config.dataDir, "tool-output") }),
    createWebFetchTool({ allowLoopback: config.allowLoopbackFetch }),
  ];
  const unknown = config.tools.filter((name) => !available.some((tool) => tool.name === name));
  if (unknown.length > 0) {
    throw new ConfigError(
      "tool_unknown",
      `Unknown tool${unknown.length > 1 ? "s" : ""}: ${unknown.join(", ")}. Built-in tools: ${available.map((tool) => tool.name).join(", ")} (bash only when named).`,
    );
  }
  const chosen = available.filter((tool) => config.tools.includes(tool.name));
  // ctxkit's own files are guarded by identity around every bash call (issue 24): a change is undone.
  const guarded = {
    files: [join(config.workspace, "ctxkit.config.json"), config.userConfigPath],
    folders: [{ path: config.dataDir, skip: ["tool-output"] }],
    shownFrom: config.workspace,
    ...(onProtectedFilesRestored ? { onRestored: onProtectedFilesRestored } : {}),
  };
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- as above
  return chosen.map((tool): Tool<any> => (tool.name === "bash" ? protectFilesAround(tool as Tool<any>, guarded) : tool));
}

/**
 * The status bar for a command: the parts the flags left on, the local time zone, the workspace as
 * working directory, and α (cached ÷ uncached input price) from the pricing catalog for `auto`.
 */
export function createStatusBarFromConfig(config: ResolvedConfig, model: string, onDecision?: (decision: StatusBarModeDecision) => void, cacheLifetimeMs?: number): StatusBar {
  const pricing = findModelPricing(model);
  const { mode, timestamps, counters, todo, detailedErrors, systemState } = config.statusBar;
  return createStatusBar({
    mode,
    timestamps,
    counters,
    todo,
    detailedErrors,
    systemState,
    // The CLI reads the environment once; the status bar itself never does.
    environment: detectSystemState(config.workspace),
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    ...(pricing && pricing.input > 0 ? { cachedInputPriceRatio: pricing.cacheRead / pricing.input } : {}),
    // Local engines keep the reply's KV blocks; hosted APIs cache prompts only (see measureModeInputs).
    cacheKeepsReplies: config.provider === "openai-compatible" && ["vllm", "llamacpp", "ollama"].includes(config.vendor),
    ...(onDecision ? { onDecision } : {}),
    ...(cacheLifetimeMs === undefined ? {} : { cacheLifetimeMs }),
  });
}

export function sessionStoreFor(config: ResolvedConfig): SessionStore {
  return createSessionStore({ directory: join(config.dataDir, "sessions") });
}

export interface ConfiguredAgent {
  agent: Agent;
  session: SessionWriter;
  resumed: boolean;
  warnings: SessionWarning[];
  statusBar: StatusBar;
  /** The context compression policy (absent with `--compression none`). */
  compression?: CompressionPolicy;
  /** The Agent Skills found at start (its `warnings` say what was skipped). */
  skills: LoadedSkillsPolicy;
  /** The MCP servers' connections: what was left out, and `close()`, which ends their processes (call it when done). */
  mcp: { warnings: McpWarning[]; close(): Promise<void> };
}

/** The skills of the workspace, the home folder and `--skills`, fixed for the session. */
export async function createSkillsFromConfig(config: ResolvedConfig, home?: string): Promise<LoadedSkillsPolicy> {
  // Only a new session's catalog follows the record: a resumed one must render the bytes it started with.
  const recentlyUsed = config.sessionId === undefined ? await readRecentSkillUse(config.dataDir) : [];
  return createSkills({
    workspace: config.workspace,
    // Over its budget, a new session's catalog cuts the least recently used descriptions first.
    ...(recentlyUsed.length > 0 ? { recentlyUsed } : {}),
    directories: config.skillDirectories,
    ...(home ? { home } : {}),
    ...(config.contextWindow ? { contextWindow: config.contextWindow } : {}),
    // The status bar's line for skills: shown with it, gone with `--status-bar off`.
    listActiveInTail: config.statusBar.mode !== "off",
    // A skill inside a workspace the user has not trusted (a cloned repository's .ctxkit/skills) is its data (issue 24).
    ...(config.untrustedContent.trustWorkspace ? {} : { untrustedSkill: (skill: { path: string }) => isInsideFolder(skill.path, config.workspace) }),
  });
}

/**
 * Builds the agent a command runs: provider, workspace tools, and a session that is created, or
 * resumed with its stored trajectory so the next request continues the same byte prefix.
 */
export async function createAgentFromConfig(
  config: ResolvedConfig,
  options: {
    provider?: Provider;
    system?: string | SystemPrompt;
    confirmToolCall: (call: ToolCallInfo) => Promise<boolean | ToolCallDecision>;
    clock?: () => Date;
    extra?: Pick<AgentOptions, "settings">;
    /** Policies of the command's own (the project-instructions announcer), added to the config's. */
    policies?: readonly ContextPolicy[];
    /** Told how `auto` chose to send the status bar (the decision and its inputs). */
    onStatusBarDecision?: (decision: StatusBarModeDecision) => void;
    /** The home directory whose ~/.config/ctxkit/skills is searched (default: the user's). */
    home?: string;
    /** The session's budget (`--budget-*`) and where approval questions are asked. */
    budget?: { settings: CliBudgetSettings } & Omit<CliBudgetContext, "model" | "calls">;
    /** Told when a bash call changed ctxkit's config or data files and they were put back (for the user). */
    onProtectedFilesRestored?: (report: RestoredReport) => void;
    /** Where the notes tools keep their file (default: the config's `notes`). */
    notes?: NotesLocation;
    /** Sees each sub-agent's events (tracing nests their spans). */
    observeChildRun?: ChildRunObserver;
  },
): Promise<ConfiguredAgent> {
  // Before anything writes under it: the data directory is private and ignored by git (issue 24).
  await prepareDataDirectory(config.dataDir);
  const provider = options.provider ?? createProviderFromConfig(config);
  const statusBar = createStatusBarFromConfig(config, provider.model, options.onStatusBarDecision, provider.cacheLifetimeMs);
  const skills = await createSkillsFromConfig(config, options.home);
  const builtinTools = createToolsFromConfig(config, options.onProtectedFilesRestored);
  const connections = await connectMcpServers(config.mcp.servers, { cwd: config.workspace });
  let mcpPolicy: ReturnType<typeof createMcpPolicy> | undefined;
  const mcp = {
    warnings: [...config.mcp.warnings, ...connections.warnings],
    close: async () => {
      mcpPolicy?.dispose();
      await connections.close();
    },
  };
  // Everything from here on closes the servers when it fails: their processes must not outlive the command.
  try {
    mcpPolicy = createMcpPolicy(connections);
    // With servers configured, tool_search and call_tool are sent from the first call, so a tool a
    // server adds later (list_changed) can be called without changing `tools`.
    const lateTools = Object.keys(config.mcp.servers).length > 0 ? connections.lateTools : undefined;
    return await createConfiguredAgent({ ...options, provider, statusBar, skills, builtinTools, mcpTools: connections.tools, mcp, context: [mcpPolicy], ...(lateTools ? { lateTools } : {}) }, config);
  } catch (error) {
    await mcp.close();
    throw error;
  }
}

async function createConfiguredAgent(
  options: Parameters<typeof createAgentFromConfig>[1] & {
    provider: Provider;
    statusBar: StatusBar;
    skills: LoadedSkillsPolicy;
    builtinTools: Tool[];
    mcpTools: readonly Tool[];
    mcp: ConfiguredAgent["mcp"];
    context: ContextPolicy[];
    lateTools?: LateToolSet;
  },
  config: ResolvedConfig,
): Promise<ConfiguredAgent> {
  const { provider, statusBar, skills, mcp } = options;
  const compression = createCompressionFromConfig(config);
  // The notes file of a new session is named after its id, known once the session has started.
  let sessionId: string | undefined = config.sessionId;
  const notes = createNotesFromFlag(options.notes ?? config.notes, config, () => sessionId ?? "unsaved");
  if (options.budget) checkBudgetPricing(options.budget.settings, provider.model);
  // The same list a library user passes: createAgent orders the policies and carries the status
  // bar's counts and TODO list across compactions.
  const untrusted = createUntrustedContentFromConfig(config);
  const context: ContextPolicy[] = [
    ...(compression ? [compression] : []),
    skills,
    statusBar,
    ...(notes ? [notes] : []),
    ...untrusted,
    ...options.context,
    ...(options.policies ?? []),
  ];
  const tools = [...options.builtinTools, ...options.mcpTools];
  // Sub-agents: the `task` tool (explore, fork), unless --no-sub-agents. Children inherit the
  // policies that say so (source tags, the runtime guard, a share of the budget).
  tools.push(
    ...createTaskToolFromConfig(config, {
      provider,
      sessionStore: sessionStoreFor(config),
      confirmToolCall: options.confirmToolCall,
      ...(options.clock ? { clock: options.clock } : {}),
      ...(options.observeChildRun ? { observeChildRun: options.observeChildRun } : {}),
    }),
  );
  const deferTools = config.deferTools && { mode: config.deferTools, ...(config.contextWindow ? { contextWindow: config.contextWindow } : {}) };
  const budgetSettings = options.budget;
  const assembled = await assembleAgent({
    provider,
    system: options.system ?? defaultSystemPrompt,
    tools,
    policies: context,
    session: { store: sessionStoreFor(config), mode: config.sessionId ? "resume" : "new", ...(config.sessionId ? { id: config.sessionId } : {}), workspace: config.workspace, repair: config.repair },
    // The budget continues from what a resumed session spent; its line sits beside the status bar
    // (a tail only: the prefix the session recorded is unchanged).
    ...(budgetSettings
      ? {
          sessionPolicies: (started: StartedSessionView) => {
            const budget = createBudgetFromFlags(budgetSettings.settings, { ...budgetSettings, model: provider.model, calls: started.calls });
            return [createBudgetPolicy(budget), ...(config.statusBar.mode !== "off" ? [createBudgetStatus(budget)] : [])];
          },
        }
      : {}),
    ...(deferTools ? { deferTools } : {}),
    // With servers configured, tool_search and call_tool are sent from the first call, so a tool a
    // server adds later (list_changed) can be called without changing `tools`.
    ...(options.lateTools ? { toolSearch: { lateTools: options.lateTools } } : {}),
    ...(options.extra?.settings ? { settings: options.extra.settings } : {}),
    confirmToolCall: options.confirmToolCall,
    // A Qwen3 model on a local engine: the guard checks the prompt's real tokens too (template breaks).
    ...(servesQwen3Locally(config, provider.model) ? { prefixGuard: { promptTokens: "qwen3" as const } } : {}),
    runtime: { maxIterations: config.maxIterations, blobStore: createFileBlobStore(join(config.dataDir, "blobs")), ...(options.clock ? { clock: options.clock } : {}) },
  });
  const session = assembled.session!;
  sessionId = session.id;
  config.cache.sessionId = session.id;
  return { agent: assembled.agent, session, resumed: assembled.resumed, warnings: assembled.warnings, statusBar, skills, mcp, ...(compression ? { compression } : {}) };
}

function servesQwen3Locally(config: ResolvedConfig, model: string): boolean {
  return config.provider === "openai-compatible" && ["vllm", "llamacpp", "ollama"].includes(config.vendor) && /qwen3/i.test(model);
}
