import { createToolSearchEmbedder } from "./create-tool-search-embedder.js";
import { isInsideFolder } from "./is-inside-folder.js";
import { isAbsolute, join, relative } from "node:path";
import { protectFilesAround, type RestoredReport } from "../tools/builtin/protected-files.js";
import { prepareDataDirectory } from "../session/private-storage.js";
import type { Agent } from "../loop/create-agent.js";
import { assembleAgent, chooseSessionId, type StartedSessionView } from "../agents/assemble-agent.js";
import type { AgentOptions, AgentRuntime, ToolCallDecision, ToolCallInfo } from "../loop/agent-options.js";
import { createServerCompactionPolicy } from "../context/server-compaction/server-compaction-policy.js";
import { createResumeAfterCompaction } from "../context/server-compaction/resume-after-compaction.js";
import { createResponsesCompactPolicy, type ResponsesCompactPolicyOptions } from "../context/server-compaction/responses-compact-policy.js";
import type { Provider } from "../providers/provider.js";
import type { SessionStore, SessionWriter, SessionWarning } from "../session/index.js";
import { openSessionStoreFor } from "./open-session-store.js";
import { createWebFetchTool, createWorkspaceTools } from "../tools/builtin/index.js";
import type { Tool } from "../tools/tool.js";
import { createToolApprovals } from "../tools/create-tool-approvals.js";
import { type BudgetApprovalRequest, type SystemPrompt, ConfigError } from "../types/index.js";
import type { AgentConfig } from "./agent-config.js";
import type { ConfigFile } from "./config-schema.js";
import { resolveAgentConfig } from "./resolve-agent-config.js";
import { loadProviderFromConfig } from "./load-provider-from-config.js";
import { localTimeZone } from "./local-time-zone.js";
import { systemPromptFromConfig } from "./system-prompt-from-config.js";
import { createInstructionsAnnouncer } from "../context/project-instructions/create-instructions-announcer.js";
import { readRecentSkillUse, recordSkillUse } from "./skill-use-record.js";
import { createStatusBar, type StatusBar, type StatusBarModeDecision } from "../context/status-bar/index.js";
import type { ContextPolicy } from "../context/context-policy.js";
import { detectSystemState } from "../agents/detect-system-state.js";
import { findModelPricing } from "../tokens/pricing.js";
import { createCompressionFromConfig } from "./create-compression-from-config.js";
import type { CompressionPolicy } from "../context/compression/index.js";
import { activeSkillNames, createSkills, findStartCatalog, type LoadedSkillsPolicy } from "../skills/index.js";
import { connectMcpServers, createMcpPolicy, type McpWarning } from "../mcp/index.js";
import type { LateToolSet } from "../tools/search/late-tool-set.js";
import { createBudgetPolicy, createBudgetStatus } from "../context/budget/index.js";
import { checkBudgetPricing, createBudgetFromConfig } from "./create-budget-from-config.js";
import { createNotesFromConfig } from "./create-notes-from-config.js";
import type { NotesReplay } from "../tools/notes/index.js";
import { createTaskToolFromConfig } from "./create-task-tool-from-config.js";
import type { ChildRunObserver } from "../agents/run-sub-agent.js";
import { createUntrustedContentFromConfig } from "./create-untrusted-content-from-config.js";

export { defaultSystemPrompt } from "./system-prompt-from-config.js";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tools of any argument type live in one list
export function createToolsFromConfig(config: AgentConfig, onProtectedFilesRestored?: (report: RestoredReport) => void): Tool<any>[] {
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
    files: [join(config.workspace, "ctxkit.config.json"), ...(config.userConfigPath ? [config.userConfigPath] : [])],
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
export function createStatusBarFromConfig(config: AgentConfig, model: string, onDecision?: (decision: StatusBarModeDecision) => void, cacheLifetimeMs?: number): StatusBar {
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
    timeZone: localTimeZone(),
    ...(pricing && pricing.input > 0 ? { cachedInputPriceRatio: pricing.cacheRead / pricing.input } : {}),
    // Local engines keep the reply's KV blocks; hosted APIs cache prompts only (see measureModeInputs).
    cacheKeepsReplies: servesLocally(config),
    ...(onDecision ? { onDecision } : {}),
    ...(cacheLifetimeMs === undefined ? {} : { cacheLifetimeMs }),
  });
}


/** The skills of the workspace, the home folder and the config's `skills`, fixed for the session. */
export async function createSkillsFromConfig(config: AgentConfig, options: { home?: string; resuming?: boolean; storedSections?: string } = {}): Promise<LoadedSkillsPolicy> {
  // Only a new session's catalog follows the record: a resumed one sends the catalog it started with
  // (its cut depended on the record of that time) while that still lists the same skills.
  const recentlyUsed = options.resuming ? [] : await readRecentSkillUse(config.dataDir);
  // Looked for in the stored policies' sections only: the project instructions before them are the person's text.
  const startCatalog = options.resuming ? findStartCatalog(options.storedSections) : undefined;
  return createSkills({
    ...(startCatalog !== undefined ? { startCatalog } : {}),
    workspace: config.workspace,
    // Over its budget, a new session's catalog cuts the least recently used descriptions first.
    ...(recentlyUsed.length > 0 ? { recentlyUsed } : {}),
    directories: config.skillDirectories,
    ...(options.home ? { home: options.home } : {}),
    ...(config.contextWindow ? { contextWindow: config.contextWindow } : {}),
    // The status bar's line for skills: shown with it, gone with `statusBar: "off"`.
    listActiveInTail: config.statusBar.mode !== "off",
    // A skill inside a workspace the user has not trusted (a cloned repository's .ctxkit/skills) is its data (issue 24).
    ...(config.untrustedContent.trustWorkspace ? {} : { untrustedSkill: (skill: { path: string }) => isInsideFolder(skill.path, config.workspace) }),
  });
}

export interface ConfiguredAgent {
  agent: Agent;
  session: SessionWriter;
  resumed: boolean;
  /** What opening the session said (torn lines repaired, records put back in order). */
  warnings: SessionWarning[];
  /** The settings resolved: defaults applied, places absolute. */
  config: AgentConfig;
  provider: Provider;
  statusBar: StatusBar;
  /** The context compression policy (absent with `compression: "none"`). */
  compression?: CompressionPolicy;
  /** The Agent Skills found at start (its `warnings` say what was skipped). */
  skills: LoadedSkillsPolicy;
  /** The MCP servers' connections: what was left out, and `close()`, which ends their processes. */
  mcp: { warnings: McpWarning[]; close(): Promise<void> };
  /** Settings that take no effect as given (an embedding model for tool search when no tool is searched for), each saying what would make them count. */
  settingWarnings: string[];
  /** The project instruction files in the system prompt (AGENTS.md, CLAUDE.md). */
  instructionFiles: string[];
  /**
   * Compacts the conversation on the server before the next model call, for a provider that offers
   * it as a call of its own: OpenAI's `POST /responses/compact` (provider "openai-responses"). The
   * window it returns replaces the trajectory as a declared break (`createResponsesCompactPolicy`).
   * Absent for other providers, and when `observeProvider`'s wrapper does not forward `compact` (the
   * pass goes through that wrapper, as the model calls do: tracing's forwards it, and a durable
   * worker's records it as a step). Anthropic's compacts in the call itself: `agent.run(input, { compact })`.
   */
  requestServerCompaction?: () => void;
  /**
   * Ends what the agent holds, in the order that loses nothing: the workspace's record of the skills
   * it used, the session file, then the MCP servers. `warn` gets a note that did not stop the closing.
   */
  close(warn?: (note: string) => void): Promise<void>;
}

export interface CreateAgentFromConfigOptions {
  /** The workspace the agent works in (absolute); its `ctxkit.config.json` is not read here. */
  workspace: string;
  /**
   * The settings, with the keys of `ctxkit.config.json` (checked against its schema; relative places
   * are inside the workspace). The CLI merges its flags, variables and config files into one such object.
   */
  settings?: ConfigFile;
  /** Start a new session (default), resume one by id, or continue the latest (a new one when there is none). */
  session?: { mode: "new" | "resume" | "continue"; id?: string; repair?: boolean };
  /** Answers confirmations (a tool that asks, the runtime guard's approvals). Without it, they are declined. */
  confirmToolCall?: (call: ToolCallInfo) => Promise<boolean | ToolCallDecision>;
  /** Asked before a call would go over an `approval` budget (without it: declined). */
  confirmBudget?: (request: BudgetApprovalRequest) => Promise<boolean>;
  /** More policies, added to the config's. */
  policies?: readonly ContextPolicy[];
  /** Told when changed project instructions are announced to the model before a message. */
  onInstructionsAnnounced?: () => void;
  /** A provider instead of the config's (a scripted one, say). */
  provider?: Provider;
  /** The config's provider's transport (the CLI's --log-requests wraps it). */
  fetch?: typeof globalThis.fetch;
  /** Where `toolSearchEmbeddingsApiKeyEnv` is looked up (default `process.env`). */
  env?: NodeJS.ProcessEnv;
  /** The system prompt as it is, instead of the config's `system` with the project instructions. */
  system?: string | SystemPrompt;
  /** The user's config file, guarded around bash calls like the workspace's. */
  userConfigPath?: string;
  /** The home directory whose ~/.config/ctxkit/skills is searched (default: the user's). */
  home?: string;
  clock?: () => Date;
  /** Told how `auto` chose to send the status bar (the decision and its inputs). */
  onStatusBarDecision?: (decision: StatusBarModeDecision) => void;
  /** Told when a bash call changed ctxkit's config or data files and they were put back. */
  onProtectedFilesRestored?: (report: RestoredReport) => void;
  /** Sees each sub-agent's events (tracing nests their spans). */
  observeChildRun?: ChildRunObserver;
  /**
   * Wraps the provider, the config's or the given one (tracing sees each request when message
   * contents are opted in). A wrapper forwards the provider's `compact` (openai-responses'
   * /responses/compact) for `requestServerCompaction` to be offered: the pass goes through it too.
   */
  observeProvider?: (provider: Provider) => Provider;
  /** Where the sessions are kept instead of the config's JSONL folder (a durable worker's database). */
  sessionStore?: SessionStore;
  /** The runtime's id generator and tool wrapper (a durable worker makes ids replayable and each tool call a step). */
  runtime?: Pick<AgentRuntime, "createId" | "wrapTool">;
  /** How a run executed again after a crash starts from the notes it first started with (a durable worker's; session notes only). */
  notesReplay?: NotesReplay;
}

/**
 * Builds the agent `ctxkit run` and `ctxkit chat` run, from the settings of a config file: the
 * provider, the built-in and MCP tools, skills, compression, the status bar, notes, the defences
 * against injected instructions, sub-agents and the budget, assembled by `assembleAgent` with a
 * session that is created, resumed or continued so the next request continues the same bytes.
 * The CLI calls this with its resolved flags and files; the same settings give the same requests.
 */
export async function createAgentFromConfig(options: CreateAgentFromConfigOptions): Promise<ConfiguredAgent> {
  // Checked before anything is written: a relative one made a `.ctxkit` folder under the process's cwd, then failed.
  if (typeof options?.workspace !== "string" || !isAbsolute(options.workspace)) {
    throw new ConfigError(
      "option_invalid",
      `createAgentFromConfig needs \`workspace\`: the absolute path of the folder the agent works in (e.g. process.cwd()); got ${JSON.stringify(options?.workspace) ?? "undefined"}.`,
    );
  }
  const config: AgentConfig = { ...resolveAgentConfig(options.settings ?? {}, options.workspace), ...(options.userConfigPath ? { userConfigPath: options.userConfigPath } : {}) };
  // A cost limit without the model's prices is refused before the data directory is made; a model
  // the provider names itself (llama's, from its file) is checked once the provider exists, below.
  const namedModel = options.provider?.model ?? config.model;
  if (config.budget && namedModel !== undefined) checkBudgetPricing(config.budget, namedModel);
  // Before anything writes under it: the data directory is private and ignored by git (issue 24).
  await prepareDataDirectory(config.dataDir);
  const store = options.sessionStore ?? (await openSessionStoreFor(config));
  const mode = options.session?.mode ?? "new";
  const repair = options.session?.repair === true;
  // One id for everything that names the session: resume's, the latest for continue, a new one's once started.
  let sessionId = mode === "new" ? undefined : await chooseSessionId(store, { mode, ...(options.session?.id ? { id: options.session.id } : {}) });
  const resuming = sessionId !== undefined;
  const prompt = await systemPromptFromConfig(config, options.system, sessionId === undefined ? undefined : { store, id: sessionId, repair });
  const given = options.provider ?? await loadProviderFromConfig(config, { ...(options.fetch ? { fetch: options.fetch } : {}), sessionId: () => sessionId });
  const provider = options.observeProvider ? options.observeProvider(given) : given;
  const statusBar = createStatusBarFromConfig(config, provider.model, options.onStatusBarDecision, provider.cacheLifetimeMs);
  const storedSections = prompt.storedPolicySections;
  const skills = await createSkillsFromConfig(config, { resuming, ...(storedSections !== undefined ? { storedSections } : {}), ...(options.home ? { home: options.home } : {}) });
  const builtinTools = createToolsFromConfig(config, options.onProtectedFilesRestored);
  // Semantic tool search's model (opt-in): made before the servers start, so a wrong setting starts nothing.
  const embedding = config.toolSearchEmbeddings ? createToolSearchEmbedder(config.toolSearchEmbeddings, options.env ?? process.env) : undefined;
  const connections = await connectMcpServers(config.mcp.servers, { cwd: config.workspace });
  let mcpPolicy: ReturnType<typeof createMcpPolicy> | undefined;
  const mcp = {
    warnings: [...config.mcp.warnings, ...connections.warnings],
    close: async () => {
      mcpPolicy?.dispose();
      try {
        await connections.close();
      } finally {
        // A local embedding model is freed with the agent (the servers' close is where the agent's resources end).
        await embedding?.embedder.dispose?.();
      }
    },
  };
  // Everything from here on closes the servers when it fails: their processes must not outlive the agent.
  try {
    // A workspace's approved servers' tool descriptions are its words: untrusted content while the
    // person has not trusted the workspace, theirs once they have (as its files are).
    const workspaceServersTaint = !config.untrustedContent.trustWorkspace;
    mcpPolicy = createMcpPolicy(connections, { untrustedServersTaint: workspaceServersTaint });
    // Through the wrapped provider, as every model call: a durable worker's wrapper makes the pass a
    // step (replayed, not made again, after a crash). Its usage is billed with the next call.
    const responsesCompact = provider.compactsOnRequest !== true && hasCompactCall(provider) ? createResponsesCompactPolicy({ provider, onOverflow: false }) : undefined;
    const compression = createCompressionFromConfig(config, provider);
    // The notes file of a new session is named after its id, known once the session has started.
    const notes = createNotesFromConfig(config.notes, config, () => sessionId ?? "unsaved", options.notesReplay);
    if (config.budget) checkBudgetPricing(config.budget, provider.model);
    // Changed project instructions go before the next user message, announced by a policy.
    const announcer = createInstructionsAnnouncer({
      takeChange: prompt.takeInstructionsChange,
      ...(options.onInstructionsAnnounced ? { onAnnounce: options.onInstructionsAnnounced } : {}),
      // An untrusted workspace's changed AGENTS.md is its words, like the one in the system prompt.
      ...(config.untrustedContent.trustWorkspace ? {} : { provenance: { untrusted: [{ source: "the project instructions", trust: "workspace" as const }] } }),
    });
    // The same list a library user passes: assembleAgent orders the policies and carries the status
    // bar's counts and TODO list across compactions.
    const policies: ContextPolicy[] = [
      ...(compression ? [compression] : []),
      skills,
      statusBar,
      ...(notes ? [notes] : []),
      ...createUntrustedContentFromConfig(config, {
        untrustedTools: workspaceServersTaint ? connections.untrustedTools : [],
        untrustedSystemSources: untrustedSystemSources(config, prompt.instructionFiles, skills.skills),
      }),
      // Which confirming calls run without asking (allow, --yes): decided here, so the CLI's prompt only asks.
      createToolApprovals(config.approvals),
      mcpPolicy,
      announcer,
      // A provider that compacts on its side (at --compact-threshold, or on chat's /compact): what its
      // summary covers is dropped as a declared break, and a turn it paused after the summary goes on.
      ...(provider.compactsOnRequest === true ? [createServerCompactionPolicy(), createResumeAfterCompaction()] : []),
      // A provider with a compaction call of its own (the Responses API's /responses/compact): on request.
      ...(responsesCompact ? [responsesCompact] : []),
      ...(options.policies ?? []),
    ];
    const confirmToolCall = options.confirmToolCall ?? (async () => false);
    // Sub-agents: the `task` tool (explore, fork), unless subAgents is off. Children inherit the
    // policies that say so (source tags, the runtime guard, a share of the budget).
    const taskTools = createTaskToolFromConfig(config, {
      provider,
      sessionStore: store,
      confirmToolCall,
      ...(options.clock ? { clock: options.clock } : {}),
      ...(options.observeChildRun ? { observeChildRun: options.observeChildRun } : {}),
    });
    // With servers configured, tool_search and call_tool are sent from the first call, so a tool a
    // server adds later (list_changed) can be called without changing `tools`.
    const lateTools: LateToolSet | undefined = Object.keys(config.mcp.servers).length > 0 ? connections.lateTools : undefined;
    const deferTools = config.deferTools && { mode: config.deferTools, ...(config.contextWindow ? { contextWindow: config.contextWindow } : {}) };
    const budget = config.budget;
    const settings: AgentOptions["settings"] = {
      ...(config.temperature === undefined ? {} : { temperature: config.temperature }),
      ...(config.maxOutputTokens === undefined ? {} : { maxOutputTokens: config.maxOutputTokens }),
    };
    const assembled = await assembleAgent({
      provider,
      system: prompt.system,
      tools: [...builtinTools, ...connections.tools, ...taskTools],
      policies,
      session: { store, mode: resuming ? "resume" : "new", ...(sessionId ? { id: sessionId } : {}), workspace: config.workspace, repair },
      // The budget continues from what a resumed session spent; its line sits beside the status bar
      // (a tail only: the prefix the session recorded is unchanged).
      ...(budget
        ? {
            sessionPolicies: (started: StartedSessionView) => {
              const spent = createBudgetFromConfig(budget, { model: provider.model, calls: started.calls, ...(options.confirmBudget ? { confirm: options.confirmBudget } : {}) });
              // A call without maxOutputTokens may produce what the provider sends by default (Anthropic's max_tokens).
              return [createBudgetPolicy(spent, provider.maxOutputTokens === undefined ? {} : { assumedOutputTokens: provider.maxOutputTokens }), ...(config.statusBar.mode !== "off" ? [createBudgetStatus(spent)] : [])];
            },
          }
        : {}),
      ...(deferTools ? { deferTools } : {}),
      ...(lateTools || embedding ? { toolSearch: { ...(lateTools ? { lateTools } : {}), ...(embedding ? { embeddings: { embedder: embedding.embedder } } : {}) } } : {}),
      settings,
      confirmToolCall,
      // A Qwen3 model on a local engine: the guard checks the prompt's real tokens too (template breaks).
      ...(servesLocally(config) && /qwen3/i.test(provider.model) ? { prefixGuard: { promptTokens: "qwen3" as const } } : {}),
      // The session's blobs (previews' and stubs' originals) live beside it: `recall` works after a restart.
      runtime: { maxIterations: config.maxIterations, ...(options.clock ? { clock: options.clock } : {}), ...options.runtime },
    });
    const session = assembled.session!;
    sessionId = session.id;
    const agent = assembled.agent;
    const settingWarnings: string[] = [];
    // Semantic search ranks tool_search's matches: without that tool (nothing deferred, or the provider searches natively) the model is never asked.
    if (embedding && !agent.prefix.tools.some((tool) => tool.name === "tool_search")) {
      settingWarnings.push(
        provider.nativeToolSearch === true
          ? `the tool-search embedding model (${embedding.label}) is not used: ${provider.model}'s provider searches deferred tools on its side.`
          : `the tool-search embedding model (${embedding.label}) is not used: no tool is deferred. It ranks tool_search's matches, which needs deferTools auto or all (--defer-tools) or MCP servers.`,
      );
    }
    return {
      agent,
      session,
      resumed: assembled.resumed,
      warnings: [...prompt.warnings, ...assembled.warnings],
      config,
      provider,
      statusBar,
      skills,
      mcp,
      settingWarnings,
      instructionFiles: prompt.instructionFiles,
      ...(responsesCompact ? { requestServerCompaction: () => responsesCompact.requestCompaction() } : {}),
      ...(compression ? { compression } : {}),
      async close(warn = () => undefined) {
        await recordSkillUse(config.dataDir, activeSkillNames(agent.messages)).catch((error: unknown) =>
          warn(`could not record which skills were used: ${error instanceof Error ? error.message : String(error)}`),
        );
        try {
          await session.close();
        } finally {
          await mcp.close();
        }
      },
    };
  } catch (error) {
    await mcp.close();
    throw error;
  }
}

/** Local engines (vLLM, llama.cpp, Ollama) keep the reply's KV blocks and render the model's own template. */
function servesLocally(config: AgentConfig): boolean {
  return config.provider === "openai-compatible" && ["vllm", "llamacpp", "ollama"].includes(config.vendor);
}

/** A provider with an on-demand compaction call (`createOpenAIResponses`'s `compact`). */
function hasCompactCall(provider: Provider): provider is Provider & ResponsesCompactPolicyOptions["provider"] {
  return typeof (provider as { compact?: unknown }).compact === "function";
}

/**
 * The parts of the system prompt an untrusted workspace wrote (its AGENTS.md / CLAUDE.md, the catalog
 * entries of its own skills), named for the runtime guard: until the person trusts the workspace they
 * are its data like its files, so the context is untrusted from the first call (issue 24's class).
 */
function untrustedSystemSources(config: AgentConfig, instructionFiles: readonly string[], skills: readonly { name: string; path: string }[]): string[] {
  if (config.untrustedContent.trustWorkspace) return [];
  return [
    ...instructionFiles.map((file) => `the project instructions in ${relative(config.workspace, file) || file}`),
    ...skills.filter((skill) => isInsideFolder(skill.path, config.workspace)).map((skill) => `the catalog entry of the workspace's skill '${skill.name}'`),
  ];
}
