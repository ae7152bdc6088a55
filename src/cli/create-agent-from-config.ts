import { join } from "node:path";
import { createAgent, type Agent } from "../loop/create-agent.js";
import type { AgentOptions, ToolCallDecision, ToolCallInfo } from "../loop/agent-options.js";
import { createAnthropic } from "../providers/anthropic/index.js";
import { createOpenAICompatible } from "../providers/openai-compatible/index.js";
import type { Provider } from "../providers/provider.js";
import { createSessionStore, startSession, type SessionStore, type SessionWriter, type SessionWarning } from "../session/index.js";
import { createWorkspaceTools } from "../tools/builtin/index.js";
import type { Tool } from "../tools/tool.js";
import { CtxkitError, type SystemPrompt } from "../types/index.js";
import type { ResolvedConfig } from "./resolve-config.js";
import { composeContextPolicies } from "../context/compose-context-policies.js";
import { withStatusCheckpoints } from "../context/status-bar/with-status-checkpoints.js";
import { createStatusBar, detectSystemState, type StatusBar, type StatusBarModeDecision } from "../context/status-bar/index.js";
import { findModelPricing } from "../session/pricing.js";
import { createTodoTools } from "../tools/todo/index.js";
import { createCompressionFromConfig } from "./create-compression-from-config.js";
import type { CompressionPolicy } from "../context/compression/index.js";

export const defaultSystemPrompt = `You are ctxkit, a coding agent working in the user's workspace through tools.
Read files before you change them, keep edits minimal, prefer searching (grep, glob) over reading whole large files,
and verify your work. When you are done, answer with a short summary of what you did and found.`;

export function createProviderFromConfig(config: ResolvedConfig, transport: { fetch?: typeof globalThis.fetch } = {}): Provider {
  if (!config.model) {
    throw new CtxkitError(
      "config_invalid",
      "No model is set. Pass --model <name> (e.g. --model qwen3:8b for Ollama), set CTXKIT_MODEL, or add \"model\" to ctxkit.config.json.",
    );
  }
  if (config.provider === "anthropic") {
    return createAnthropic({ model: config.model, ...(config.apiKey ? { apiKey: config.apiKey } : {}), ...(config.baseURL ? { baseURL: config.baseURL } : {}), ...transport });
  }
  return createOpenAICompatible({
    vendor: config.vendor,
    model: config.model,
    ...(config.apiKey ? { apiKey: config.apiKey } : {}),
    ...(config.baseURL ? { baseURL: config.baseURL } : {}),
    ...transport,
  });
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tools of any argument type live in one list
export function createToolsFromConfig(config: ResolvedConfig): Tool<any>[] {
  const available = createWorkspaceTools({ workspace: config.workspace, enableBash: config.tools.includes("bash") });
  const unknown = config.tools.filter((name) => !available.some((tool) => tool.name === name));
  if (unknown.length > 0) {
    throw new CtxkitError(
      "config_invalid",
      `Unknown tool${unknown.length > 1 ? "s" : ""}: ${unknown.join(", ")}. Built-in tools: ${available.map((tool) => tool.name).join(", ")} (bash only when named).`,
    );
  }
  return available.filter((tool) => config.tools.includes(tool.name));
}

/**
 * The status bar for a command: the parts the flags left on, the local time zone, the workspace as
 * working directory, and α (cached ÷ uncached input price) from the pricing catalog for `auto`.
 */
export function createStatusBarFromConfig(config: ResolvedConfig, model: string, onDecision?: (decision: StatusBarModeDecision) => void): StatusBar {
  const pricing = findModelPricing(model);
  const { mode, timestamps, counters, todo, detailedErrors, systemState } = config.statusBar;
  return createStatusBar({
    mode,
    timestamps,
    counters,
    todo,
    detailedErrors,
    systemState,
    environment: detectSystemState(config.workspace),
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    ...(pricing && pricing.input > 0 ? { cachedInputPriceRatio: pricing.cacheRead / pricing.input } : {}),
    // Local engines keep the reply's KV blocks; hosted APIs cache prompts only (see measureModeInputs).
    cacheKeepsReplies: config.provider === "openai-compatible" && ["vllm", "llamacpp", "ollama"].includes(config.vendor),
    ...(onDecision ? { onDecision } : {}),
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
    extra?: Partial<AgentOptions>;
    /** Told how `auto` chose to send the status bar (the decision and its inputs). */
    onStatusBarDecision?: (decision: StatusBarModeDecision) => void;
  },
): Promise<ConfiguredAgent> {
  const provider = options.provider ?? createProviderFromConfig(config);
  const statusBar = createStatusBarFromConfig(config, provider.model, options.onStatusBarDecision);
  // Recall by message id reads the session, whose id is known only once it is started below.
  const current: { sessionId?: string } = {};
  const compression = createCompressionFromConfig(config, sessionStoreFor(config), () => current.sessionId);
  const tools = [...createToolsFromConfig(config), ...(config.statusBar.todo ? createTodoTools() : []), ...(compression ? [compression.recallTool] : [])];
  const system = options.system ?? defaultSystemPrompt;
  const started = await startSession(sessionStoreFor(config), {
    ...(config.sessionId ? { id: config.sessionId } : {}),
    system,
    tools,
    provider,
    workspace: config.workspace,
    ...(options.clock ? { clock: options.clock } : {}),
  });
  const { session, messages, resumed } = started;
  current.sessionId = session.id;
  // Compression runs first; the extra policy and the status bar then see the context it left.
  // A compaction that summarises tool calls away carries the status bar's counts and TODO list over.
  const compressionPolicy = compression && config.statusBar.mode !== "off" ? withStatusCheckpoints(compression.policy, statusBar.checkpoint) : compression?.policy;
  const innerPolicy = compressionPolicy && options.extra?.contextPolicy ? composeContextPolicies(compressionPolicy, options.extra.contextPolicy) : (compressionPolicy ?? options.extra?.contextPolicy);
  const agent = createAgent({
    provider,
    system,
    tools,
    maxIterations: config.maxIterations,
    messages,
    session,
    confirmToolCall: options.confirmToolCall,
    ...(options.clock ? { clock: options.clock } : {}),
    ...options.extra,
    // The status bar runs after any other policy, so it describes the context as that policy left it.
    contextPolicy: innerPolicy ? composeContextPolicies(innerPolicy, statusBar.policy) : statusBar.policy,
    tail: options.extra?.tail ?? statusBar.tail,
    processUserMessage: options.extra?.processUserMessage ?? statusBar.processUserMessage,
  });
  return { agent, session, resumed, warnings: started.warnings, statusBar, ...(compression ? { compression: compression.policy } : {}) };
}
