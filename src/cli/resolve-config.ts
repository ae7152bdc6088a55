import type { DeferToolsMode } from "../tools/search/apply-defer-tools.js";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { vendorProfiles } from "../providers/openai-compatible/vendor-profiles.js";
import type { CliFlags } from "./cli-options.js";
import type { CompressionPolicyName } from "../context/compression/compression-policy-names.js";
import { resolveMcpServers, type ResolvedMcpServers } from "./resolve-mcp-servers.js";
import type { ConfigFile, ConfigKey } from "./config/config-schema.js";
import { readConfigFile } from "./config/read-config-file.js";
import { checkWorkspaceConfig } from "./config/check-workspace-config.js";
import { settingCandidates, type ConfigSource, type ResolvedSetting, type SettingInputs, type SettingOrigin } from "./config/resolve-settings.js";
import { defaultCompression, defaultMaxIterations, defaultNotesLocation, defaultToolNames, type CacheTtl, type NotesLocation, type ProviderName, type StatusBarMode, type VendorName } from "./config/config-values.js";
import { resolveToolList } from "./config/resolve-tool-list.js";
import { resolveBudget, type CliBudgetSettings } from "./config/resolve-budget.js";

export { providerNames, vendorNames, statusBarModes, defaultToolNames, cacheTtls, type CacheTtl, type ProviderName, type VendorName } from "./config/config-values.js";
export type { ConfigSource, SettingOrigin, ResolvedSetting } from "./config/resolve-settings.js";
export { describeConfig, describeSettings, maskSecret } from "./config/describe-config.js";

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
  /** --trust-workspace or `trustWorkspace` in the user's config: workspace results are not tagged. */
  trustWorkspace: boolean;
  /** Tools whose results count as external whatever they declare (`externalTools`). */
  externalTools: string[];
  /** The system-prompt section saying external content is data (`untrustedContentNotice`, default true). */
  notice: boolean;
}

/** Everything a command needs to build an agent, with where each value came from. */
export interface ResolvedConfig {
  provider: ProviderName;
  vendor: VendorName;
  baseURL?: string;
  model?: string;
  /** The GGUF file of the llama provider (embedded engine). */
  modelPath?: string;
  apiKey?: string;
  workspace: string;
  dataDir: string;
  /** The user's config file ($XDG_CONFIG_HOME/ctxkit/config.json), whether it exists or not: guarded against commands like the workspace's. */
  userConfigPath: string;
  /** Provider time limits from --request-timeout / --idle-timeout (seconds) or CTXKIT_REQUEST_TIMEOUT / CTXKIT_IDLE_TIMEOUT. */
  timeouts: { firstByteMs?: number; idleMs?: number };
  /**
   * Prompt caching: `ttl` (--cache-ttl, Anthropic's cache lifetime: 5m or 1h, writes at 1.25× or 2×)
   * and `key` (--cache-key: OpenAI's `prompt_cache_key`, the `x-session-affinity` header for other
   * OpenAI-compatible servers). Without a key the session id is used; `sessionId` is filled in when
   * the session starts, so the provider reads it on its first call.
   */
  cache: { ttl: CacheTtl; key?: string; sessionId?: string };
  /** --repair: resume a session the loader found damaged records in (see startSession's `repair`). */
  repair: boolean;
  sessionId?: string;
  maxIterations: number;
  contextWindow?: number;
  /** The context compression policy (default `ctxkit`, the layered pipeline). */
  compression: CompressionPolicyName;
  /** Built-in tools to offer; `bash` only when named. */
  tools: string[];
  /** Approve every confirmation. */
  yes: boolean;
  /** Tools whose calls never ask for confirmation. */
  allow: string[];
  statusBar: StatusBarConfig;
  /** Whether the agent gets the `task` tool with the explore and fork sub-agents (`--no-sub-agents` turns it off). */
  subAgents: boolean;
  /** web_fetch may fetch pages on this machine (`--allow-loopback-fetch`, CTXKIT_ALLOW_LOOPBACK_FETCH=1, user config). */
  allowLoopbackFetch: boolean;
  /** How content from outside is handled (source tags, the runtime guard; see ctxkit/policies). */
  untrustedContent: UntrustedContentConfig;
  /** Skill directories (absolute) from `--skills` and the config files, searched before the standard places. */
  skillDirectories: string[];
  /** MCP servers from the config files' `mcpServers` and `--mcp-config` (a workspace's may not start programs). */
  mcp: ResolvedMcpServers;
  /** `--defer-tools`: which tools are kept out of `tools` and found with tool_search (absent: none but those marked). */
  deferTools?: DeferToolsMode;
  /** Where the notes tools keep their file (`--notes`, `notes`; default `session`). */
  notes: NotesLocation;
  /** The session's limits (`--budget-*`, `budget*`); absent when no limit is set. */
  budget?: CliBudgetSettings;
  /** Sampling settings (`--temperature`, `--max-output-tokens`). */
  temperature?: number;
  maxOutputTokens?: number;
  /** `--system <text|@file>`; a file is named by its absolute path (`@/…`). */
  system?: string;
  /** Whether AGENTS.md / CLAUDE.md go into the system prompt (`--no-project-instructions` turns it off). */
  projectInstructions: boolean;
  /** `--log-requests <file>` (absolute). */
  logRequests?: string;
  /** `--color` / `--no-color` / `color`; absent: decided by the terminal and NO_COLOR / FORCE_COLOR. */
  color?: boolean;
  /** What the command should tell the person (a workspace's setting left out, …), for stderr. */
  warnings: string[];
  sources: Partial<Record<keyof Omit<ResolvedConfig, "sources" | "settings" | "warnings" | "configFiles">, ConfigSource>>;
  /** Every config key's resolved value in the config file's terms, with its origin (`ctxkit config --json`). */
  settings: Partial<Record<ConfigKey, ResolvedSetting>>;
  configFiles: string[];
}

export interface ResolveConfigOptions {
  /** Read ctxkit.config.json and ~/.config/ctxkit/config.json (default true; the demo reads neither). */
  readConfigFiles?: boolean;
  /** The directory relative flags are resolved against (default: the process's). */
  cwd?: string;
}

/**
 * Resolves configuration from flags, then environment variables, then `ctxkit.config.json` in the
 * workspace, then the user's config file (`$XDG_CONFIG_HOME/ctxkit/config.json`), then defaults.
 */
export function resolveConfig(flags: CliFlags, environment: NodeJS.ProcessEnv = process.env, options: ResolveConfigOptions = {}): ResolvedConfig {
  const cwd = options.cwd ?? process.cwd();
  const workspace = resolve(cwd, flags.workspace ?? environment.CTXKIT_WORKSPACE ?? ".");
  const userConfigPath = join(environment.XDG_CONFIG_HOME ?? join(environment.HOME ?? homedir(), ".config"), "ctxkit", "config.json");
  const workspaceConfigPath = join(workspace, "ctxkit.config.json");
  const readFiles = options.readConfigFiles !== false;
  const workspaceConfig = readFiles ? readConfigFile(workspaceConfigPath) : undefined;
  if (workspaceConfig) checkWorkspaceConfig(workspaceConfig, workspaceConfigPath);
  const userConfig = readFiles ? readConfigFile(userConfigPath) : undefined;
  const inputs: SettingInputs = {
    flags,
    environment,
    ...(workspaceConfig ? { workspaceFile: { path: workspaceConfigPath, config: workspaceConfig } } : {}),
    ...(userConfig ? { userFile: { path: userConfigPath, config: userConfig } } : {}),
  };
  const settings: ResolvedConfig["settings"] = {};
  const warnings: string[] = [];

  /** The first candidate (flag, environment, workspace file, user file), else the default. */
  function pick<Key extends ConfigKey>(key: Key, fallback?: NonNullable<ConfigFile[Key]>, extraVariables: readonly string[] = []): NonNullable<ConfigFile[Key]> | undefined {
    const first = settingCandidates(key, inputs, extraVariables)[0];
    if (first) settings[key] = first;
    else if (fallback !== undefined) settings[key] = { value: fallback, origin: { source: "default" } };
    return first?.value ?? fallback;
  }

  const provider = pick("provider", "openai-compatible")!;
  const vendor = pick("vendor", "openai")!;
  const isAnthropic = provider === "anthropic";
  const speaksOpenAI = vendor === "openai" || provider === "openai-responses";
  const baseURL = pick("baseURL", undefined, isAnthropic ? ["ANTHROPIC_BASE_URL"] : speaksOpenAI ? ["OPENAI_BASE_URL"] : []);
  // The vendor's own variable (DEEPSEEK_API_KEY, MOONSHOT_API_KEY, …) too, so `ctxkit config` shows the key the provider will use.
  const apiKey = pick("apiKey", undefined, isAnthropic ? ["ANTHROPIC_API_KEY"] : [...(speaksOpenAI ? ["OPENAI_API_KEY"] : []), ...vendorProfiles[vendor].apiKeyEnvVars]);
  const model = pick("model");
  const modelPath = pick("modelPath");
  const maxIterations = pick("maxIterations", defaultMaxIterations)!;
  const contextWindow = pick("contextWindow");
  const compression = pick("compression", defaultCompression)!;
  const dataDir = resolve(workspace, pick("dataDir", ".ctxkit")!);
  const requestTimeout = pick("requestTimeout");
  const idleTimeout = pick("idleTimeout");
  const cacheTtl = pick("cacheTtl", "5m")!;
  const cacheKey = pick("cacheKey");
  const statusBarMode = pick("statusBar", "auto")!;
  const on = (key: "statusBarTimestamps" | "statusBarCounter" | "statusBarTodo" | "statusBarErrors" | "statusBarState") => pick(key, true)!;
  const notes = pick("notes", defaultNotesLocation)!;
  const temperature = pick("temperature");
  const maxOutputTokens = pick("maxOutputTokens");
  const system = pick("system");
  const logRequests = pick("logRequests");
  const color = pick("color");
  const deferTools = pick("deferTools");
  const userAllow = inputs.userFile?.config.allow;
  if (userAllow) settings.allow = { value: userAllow, origin: { source: "user config", file: userConfigPath } };

  const tools = resolveToolList(settingCandidates("tools", inputs), defaultToolNames, warnings);
  settings.tools = { value: tools.names, origin: tools.origin };
  const budget = resolveBudget(inputs, settings);
  const skills = mergedList("skills", inputs, settings);
  const externalTools = mergedList("externalTools", inputs, settings);
  const mcpFiles = flags["mcp-config"] ?? [];
  const mcpOrigins: SettingOrigin[] = [
    ...mcpFiles.map((file) => ({ source: "flag" as const, flag: "--mcp-config", file: resolve(cwd, file) })),
    ...(workspaceConfig?.mcpServers ? [{ source: "workspace config" as const, file: workspaceConfigPath }] : []),
    ...(userConfig?.mcpServers ? [{ source: "user config" as const, file: userConfigPath }] : []),
  ];
  const mcp = resolveMcpServers({
    ...(userConfig?.mcpServers ? { user: { path: userConfigPath, value: userConfig.mcpServers } } : {}),
    ...(workspaceConfig?.mcpServers
      ? { workspace: { path: workspaceConfigPath, value: workspaceConfig.mcpServers, directory: workspace, approvals: userConfig?.mcpApprovals ?? [] } }
      : {}),
    files: mcpFiles,
    cwd,
  });
  if (mcpOrigins.length > 0) settings.mcpServers = { value: mcp.servers, origin: mcpOrigins };

  const resolved: ResolvedConfig = {
    provider,
    vendor,
    ...(baseURL ? { baseURL } : {}),
    ...(model ? { model } : {}),
    ...(modelPath ? { modelPath: resolve(placeOf("modelPath"), modelPath) } : {}),
    ...(apiKey ? { apiKey } : {}),
    workspace,
    dataDir,
    userConfigPath,
    timeouts: {
      ...(requestTimeout === undefined ? {} : { firstByteMs: Math.round(requestTimeout * 1000) }),
      ...(idleTimeout === undefined ? {} : { idleMs: Math.round(idleTimeout * 1000) }),
    },
    ...(flags.session ? { sessionId: flags.session } : {}),
    cache: { ttl: cacheTtl, ...(cacheKey ? { key: cacheKey } : {}) },
    maxIterations,
    ...(contextWindow ? { contextWindow } : {}),
    compression,
    tools: tools.names,
    yes: pick("yes", false)!,
    repair: flags.repair === true,
    subAgents: pick("subAgents", true)!,
    allow: userAllow ?? [],
    statusBar: {
      mode: statusBarMode,
      timestamps: on("statusBarTimestamps"),
      counters: on("statusBarCounter"),
      todo: on("statusBarTodo"),
      detailedErrors: on("statusBarErrors"),
      systemState: on("statusBarState"),
    },
    allowLoopbackFetch: pick("allowLoopbackFetch", false)!,
    untrustedContent: {
      trustWorkspace: pick("trustWorkspace", false)!,
      externalTools: [...new Set(externalTools.map((item) => item.value))],
      notice: pick("untrustedContentNotice", true)!,
    },
    // Relative to the workspace, as --data-dir is.
    skillDirectories: skills.map((item) => resolve(workspace, item.value)),
    mcp,
    ...(deferTools === undefined ? {} : { deferTools }),
    notes,
    ...(budget ? { budget } : {}),
    ...(temperature === undefined ? {} : { temperature }),
    ...(maxOutputTokens === undefined ? {} : { maxOutputTokens }),
    ...(system === undefined ? {} : { system: system.startsWith("@") ? `@${resolve(placeOf("system"), system.slice(1))}` : system }),
    projectInstructions: pick("projectInstructions", true)!,
    ...(logRequests === undefined ? {} : { logRequests: resolve(placeOf("logRequests"), logRequests) }),
    ...(color === undefined ? {} : { color }),
    warnings,
    sources: {},
    settings,
    configFiles: [workspaceConfig && workspaceConfigPath, userConfig && userConfigPath].filter((path): path is string => Boolean(path)),
  };
  // `ctxkit config --json` shows places as they will be used: absolute.
  for (const key of ["dataDir", "modelPath", "system", "logRequests"] as const) {
    const setting = settings[key];
    const value = resolved[key];
    if (setting && value !== undefined) setting.value = value;
  }
  if (settings.skills) settings.skills.value = resolved.skillDirectories;
  resolved.sources = { ...sourcesOf(settings), workspace: flags.workspace !== undefined ? "flag" : environment.CTXKIT_WORKSPACE !== undefined ? "environment" : "default" };
  return resolved;

  /** Where a relative path of a setting is resolved: the current directory for flags and variables, the workspace for its file, the file's folder for the user's. */
  function placeOf(key: ConfigKey): string {
    const origin = settings[key]?.origin;
    if (origin === undefined || Array.isArray(origin) || origin.file === undefined) return cwd;
    return origin.source === "workspace config" ? workspace : dirname(origin.file);
  }
}

/** Lists that add up across sources (skill folders, external tools): flag, workspace's, user's. */
function mergedList(key: "skills" | "externalTools", inputs: SettingInputs, settings: ResolvedConfig["settings"]): Array<{ value: string; origin: SettingOrigin }> {
  const items = settingCandidates(key, inputs).flatMap((candidate) => candidate.value.map((value) => ({ value, origin: candidate.origin })));
  if (items.length > 0) settings[key] = { value: items.map((item) => item.value), origin: [...new Set(items.map((item) => item.origin))] };
  return items;
}

/** The per-field sources `ctxkit config` has always shown, from the per-key origins. */
function sourcesOf(settings: ResolvedConfig["settings"]): ResolvedConfig["sources"] {
  const sourceOf = (key: ConfigKey): ConfigSource | undefined => {
    const origin = settings[key]?.origin;
    return origin === undefined ? undefined : Array.isArray(origin) ? origin[0]?.source : origin.source;
  };
  const sources: ResolvedConfig["sources"] = {};
  const fields: Array<[keyof ResolvedConfig["sources"], ConfigKey]> = [
    ["provider", "provider"], ["vendor", "vendor"], ["baseURL", "baseURL"], ["apiKey", "apiKey"], ["model", "model"], ["modelPath", "modelPath"],
    ["maxIterations", "maxIterations"], ["contextWindow", "contextWindow"], ["compression", "compression"], ["tools", "tools"], ["dataDir", "dataDir"],
    ["allowLoopbackFetch", "allowLoopbackFetch"], ["statusBar", "statusBar"], ["notes", "notes"], ["yes", "yes"], ["subAgents", "subAgents"],
    ["deferTools", "deferTools"], ["system", "system"], ["logRequests", "logRequests"], ["temperature", "temperature"], ["maxOutputTokens", "maxOutputTokens"],
  ];
  for (const [field, key] of fields) {
    const source = sourceOf(key);
    if (source) sources[field] = source;
  }
  return sources;
}

export type { CliBudgetSettings };
