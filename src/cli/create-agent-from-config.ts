import { join } from "node:path";
import { createAgent, type Agent } from "../loop/create-agent.js";
import type { AgentOptions, ToolCallDecision, ToolCallInfo } from "../loop/agent-options.js";
import { createAnthropic } from "../providers/anthropic/index.js";
import { createLlama } from "../providers/llama/index.js";
import { createOpenAICompatible } from "../providers/openai-compatible/index.js";
import type { Provider } from "../providers/provider.js";
import { createSessionStore, startSession, type SessionStore, type SessionWriter, type SessionWarning } from "../session/index.js";
import { createWorkspaceTools } from "../tools/builtin/index.js";
import type { Tool } from "../tools/tool.js";
import { type SystemPrompt, ConfigError } from "../types/index.js";
import type { ResolvedConfig } from "./resolve-config.js";
import { createStatusBar, type StatusBar, type StatusBarModeDecision } from "../context/status-bar/index.js";
import type { ContextPolicy } from "../context/context-policy.js";
import { policySystemSection, resolveAgentPrefix, withoutPolicySections } from "../loop/resolve-agent-prefix.js";
import { detectSystemState } from "../loop/detect-system-state.js";
import { createFileBlobStore } from "../session/blob-store.js";
import { findModelPricing } from "../session/pricing.js";
import { createCompressionFromConfig } from "./create-compression-from-config.js";
import type { CompressionPolicy } from "../context/compression/index.js";
import { createSkills, type SkillsPolicy } from "../skills/index.js";
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
  if (config.provider === "anthropic") {
    return createAnthropic({
      model: config.model,
      timeouts: config.timeouts,
      ...(config.apiKey ? { apiKey: config.apiKey } : {}),
      ...(config.baseURL ? { baseURL: config.baseURL } : {}),
      ...transport,
    });
  }
  return createOpenAICompatible({
    vendor: config.vendor,
    model: config.model,
    timeouts: config.timeouts,
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
    throw new ConfigError(
      "tool_unknown",
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
    // The CLI reads the environment once; the status bar itself never does.
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
  /** The Agent Skills found at start (its `warnings` say what was skipped). */
  skills: SkillsPolicy;
}

/** The skills of the workspace, the home folder and `--skills`, fixed for the session. */
export function createSkillsFromConfig(config: ResolvedConfig, home?: string): Promise<SkillsPolicy> {
  return createSkills({
    workspace: config.workspace,
    directories: config.skillDirectories,
    ...(home ? { home } : {}),
    ...(config.contextWindow ? { contextWindow: config.contextWindow } : {}),
    // The status bar's line for skills: shown with it, gone with `--status-bar off`.
    listActiveInTail: config.statusBar.mode !== "off",
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
    extra?: Partial<AgentOptions>;
    /** Told how `auto` chose to send the status bar (the decision and its inputs). */
    onStatusBarDecision?: (decision: StatusBarModeDecision) => void;
    /** The home directory whose ~/.config/ctxkit/skills is searched (default: the user's). */
    home?: string;
  },
): Promise<ConfiguredAgent> {
  const provider = options.provider ?? createProviderFromConfig(config);
  const statusBar = createStatusBarFromConfig(config, provider.model, options.onStatusBarDecision);
  const compression = createCompressionFromConfig(config);
  const skills = await createSkillsFromConfig(config, options.home);
  // The same list a library user passes: createAgent orders the policies and carries the status
  // bar's counts and TODO list across compactions.
  const untrusted = createUntrustedContentFromConfig(config);
  const context: ContextPolicy[] = [...(compression ? [compression] : []), skills, statusBar, ...untrusted.policies, ...(options.extra?.context ?? [])];
  const tools = createToolsFromConfig(config);
  // A resumed session's stored system prompt already holds the policies' sections (the skills catalog…).
  const system = withoutPolicySections(options.system ?? defaultSystemPrompt, policySystemSection({ tools, context }));
  const prefix = resolveAgentPrefix({ system, tools, context });
  const started = await startSession(sessionStoreFor(config), {
    ...(config.sessionId ? { id: config.sessionId } : {}),
    system: prefix.system,
    tools: prefix.tools,
    provider,
    workspace: config.workspace,
    repair: config.repair,
    ...(options.clock ? { clock: options.clock } : {}),
  });
  const { session, messages, resumed } = started;
  const agent = createAgent({
    provider,
    system,
    tools,
    maxIterations: config.maxIterations,
    messages,
    messageLog: started.log,
    session,
    blobStore: createFileBlobStore(join(config.dataDir, "blobs")),
    confirmToolCall: options.confirmToolCall,
    runtimeGuard: untrusted.runtimeGuard,
    // A Qwen3 model on a local engine: the guard checks the prompt's real tokens too (template breaks).
    ...(servesQwen3Locally(config, provider.model) ? { prefixGuard: { promptTokens: "qwen3" as const } } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
    ...options.extra,
    context,
  });
  return { agent, session, resumed, warnings: started.warnings, statusBar, skills, ...(compression ? { compression } : {}) };
}

function servesQwen3Locally(config: ResolvedConfig, model: string): boolean {
  return config.provider === "openai-compatible" && ["vllm", "llamacpp", "ollama"].includes(config.vendor) && /qwen3/i.test(model);
}
