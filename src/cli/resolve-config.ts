import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { vendorProfiles } from "../providers/openai-compatible/vendor-profiles.js";
import type { CliFlags } from "./cli-options.js";
import type { AgentConfig } from "../config/agent-config.js";
import { resolveAgentConfig } from "../config/resolve-agent-config.js";
import { resolveMcpServers } from "./resolve-mcp-servers.js";
import type { ConfigFile, ConfigKey } from "../config/config-schema.js";
import { readConfigFile } from "./config/read-config-file.js";
import { checkWorkspaceConfig } from "./config/check-workspace-config.js";
import { settingCandidates, type ConfigSource, type ResolvedSetting, type SettingInputs, type SettingOrigin } from "./config/resolve-settings.js";
import { configDefaults, defaultToolNames } from "../config/config-values.js";
import { narrowToolSwitches } from "./config/narrow-tool-switches.js";
import { resolveToolList } from "./config/resolve-tool-list.js";
import { resolveBudget } from "./config/resolve-budget.js";
import { checkReasoningEffort } from "./config/check-reasoning-effort.js";

export { providerNames, vendorNames, statusBarModes, defaultToolNames, cacheTtls, type CacheTtl, type ProviderName, type VendorName } from "../config/config-values.js";
export type { ConfigSource, SettingOrigin, ResolvedSetting } from "./config/resolve-settings.js";
export { describeConfig, describeSettings, maskSecret } from "./config/describe-config.js";

export type { StatusBarConfig, UntrustedContentConfig } from "../config/agent-config.js";

/** Everything a command needs: the agent's config, and what only the CLI uses, with where each value came from. */
export interface ResolvedConfig extends AgentConfig {
  /** The user's config file ($XDG_CONFIG_HOME/ctxkit/config.json), whether it exists or not: guarded against commands like the workspace's. */
  userConfigPath: string;
  /** The agent's untrusted-content settings, and whether the user decided about the workspace's trust (if not, a terminal asks once). */
  untrustedContent: AgentConfig["untrustedContent"] & { trustDecided: boolean };
  /** The cache settings; `sessionId` is filled in when the session starts, so the provider reads it on its first call. */
  cache: AgentConfig["cache"] & { sessionId?: string };
  /** --repair: resume a session the loader found damaged records in (see startSession's `repair`). */
  repair: boolean;
  sessionId?: string;
  /** Approve every confirmation. */
  yes: boolean;
  /** Tools whose calls never ask for confirmation. */
  allow: string[];
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

  const provider = pick("provider", configDefaults.provider)!;
  const vendor = pick("vendor", configDefaults.vendor)!;
  const isAnthropic = provider === "anthropic";
  const speaksOpenAI = vendor === "openai" || provider === "openai-responses";
  pick("baseURL", undefined, isAnthropic ? ["ANTHROPIC_BASE_URL"] : speaksOpenAI ? ["OPENAI_BASE_URL"] : []);
  // The vendor's own variable (DEEPSEEK_API_KEY, MOONSHOT_API_KEY, …) too, so `ctxkit config` shows the key the provider will use.
  pick("apiKey", undefined, isAnthropic ? ["ANTHROPIC_API_KEY"] : [...(speaksOpenAI ? ["OPENAI_API_KEY"] : []), ...vendorProfiles[vendor].apiKeyEnvVars]);
  const dataDir = resolve(workspace, pick("dataDir", configDefaults.dataDir)!);
  for (const key of ["model", "modelPath", "contextWindow", "requestTimeout", "idleTimeout", "cacheKey", "cacheRetention", "reasoningEffort", "compactThreshold", "reasoningRoundTrip", "databaseUrl", "temperature", "maxOutputTokens", "system", "deferTools", "toolSearchEmbeddingsUrl", "toolSearchEmbeddingsModel", "toolSearchEmbeddingsApiKeyEnv", "toolSearchEmbeddingModelPath"] as const) pick(key);
  for (const key of ["maxIterations", "compression", "cacheTtl", "statusBar", "statusBarTimestamps", "statusBarCounter", "statusBarTodo", "statusBarErrors", "statusBarState", "notes", "subAgents", "allowLoopbackFetch", "untrustedContentNotice", "projectInstructions"] as const) {
    pick(key, configDefaults[key] as never);
  }
  narrowToolSwitches(inputs, settings, warnings);
  const yes = pick("yes", configDefaults.yes)!;
  const logRequests = pick("logRequests");
  const color = pick("color");
  const userAllow = inputs.userFile?.config.allow;
  if (userAllow) settings.allow = { value: userAllow, origin: { source: "user config", file: userConfigPath } };
  const userAllowUnderTaint = inputs.userFile?.config.allowUnderTaint;
  if (userAllowUnderTaint) settings.allowUnderTaint = { value: userAllowUnderTaint, origin: { source: "user config", file: userConfigPath } };
  const trustDecided = workspaceTrust();

  checkReasoningEffort(provider, settings.reasoningEffort);
  warnings.push(...ignoredCacheSettings(provider, settings));
  const tools = resolveToolList(settingCandidates("tools", inputs), defaultToolNames, warnings);
  settings.tools = { value: tools.names, origin: tools.origin };
  resolveBudget(inputs, settings);
  const skills = mergedList("skills", inputs, settings);
  mergedList("externalTools", inputs, settings);
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

  // `ctxkit config --json` shows places as they will be used: absolute.
  for (const key of ["modelPath", "toolSearchEmbeddingModelPath", "system", "logRequests"] as const) {
    const setting = settings[key];
    if (setting === undefined) continue;
    const value = setting.value as string;
    setting.value = key === "system" ? (value.startsWith("@") ? `@${resolve(placeOf(key), value.slice(1))}` : value) : resolve(placeOf(key), value);
  }
  settings.dataDir = { ...settings.dataDir!, value: dataDir };
  if (settings.skills) settings.skills.value = skills.map((item) => resolve(workspace, item.value));
  // The agent's part is resolved by the library from the merged settings, as createAgentFromConfig does.
  const agent = resolveAgentConfig(settingValues(settings), workspace);
  const resolved: ResolvedConfig = {
    ...agent,
    untrustedContent: { ...agent.untrustedContent, trustDecided },
    mcp,
    userConfigPath,
    ...(flags.session ? { sessionId: flags.session } : {}),
    yes,
    repair: flags.repair === true,
    allow: userAllow ?? [],
    ...(logRequests === undefined ? {} : { logRequests: settings.logRequests!.value as string }),
    ...(color === undefined ? {} : { color }),
    warnings,
    sources: {},
    settings,
    configFiles: [workspaceConfig && workspaceConfigPath, userConfig && userConfigPath].filter((path): path is string => Boolean(path)),
  };
  resolved.sources = { ...sourcesOf(settings), workspace: flags.workspace !== undefined ? "flag" : environment.CTXKIT_WORKSPACE !== undefined ? "environment" : "default" };
  return resolved;

  /**
   * The user's decision about this workspace — --trust-workspace, the recorded answer for its path
   * (`trustedWorkspaces`), or the user config's `trustWorkspace` — set as `trustWorkspace`; whether
   * there was one (if not, a terminal asks once).
   */
  function workspaceTrust(): boolean {
    const recorded = userConfig?.trustedWorkspaces?.[workspace];
    const chosen = settingCandidates("trustWorkspace", inputs)[0];
    if (chosen?.origin.source === "flag" || (chosen?.value === true && recorded === undefined)) {
      settings.trustWorkspace = chosen;
      return true;
    }
    if (recorded !== undefined) {
      settings.trustWorkspace = { value: recorded, origin: { source: "user config", file: userConfigPath } };
      return true;
    }
    settings.trustWorkspace = chosen ?? { value: configDefaults.trustWorkspace, origin: { source: "default" } };
    return chosen !== undefined;
  }

  /** Where a relative path of a setting is resolved: the current directory for flags and variables, the workspace for its file, the file's folder for the user's. */
  function placeOf(key: ConfigKey): string {
    const origin = settings[key]?.origin;
    if (origin === undefined || Array.isArray(origin) || origin.file === undefined) return cwd;
    return origin.source === "workspace config" ? workspace : dirname(origin.file);
  }
}

/** The chosen value of every key that has one: one config file's worth of settings, merged from every source. */
export function settingValues(settings: ResolvedConfig["settings"]): ConfigFile {
  return Object.fromEntries(Object.entries(settings).map(([key, setting]) => [key, setting.value])) as ConfigFile;
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

/**
 * One line for each provider-specific setting the user chose that the chosen provider does not send
 * (--cache-ttl is Anthropic's; --cache-retention is the Responses API's; --reasoning-effort and
 * --compact-threshold are both of theirs), so a setting that changes nothing is not silently dropped.
 */
function ignoredCacheSettings(provider: string, settings: ResolvedConfig["settings"]): string[] {
  const owners: Array<[ConfigKey, string, string]> = [
    ["cacheTtl", "--cache-ttl", "anthropic"],
    ["cacheRetention", "--cache-retention", "openai-responses"],
    ["reasoningEffort", "--reasoning-effort", "openai-responses and anthropic"],
    ["compactThreshold", "--compact-threshold", "openai-responses and anthropic"],
  ];
  const hint: Record<string, string> = { "openai-responses": "; its cache lifetime is --cache-retention", anthropic: "; its cache lifetime is --cache-ttl" };
  return owners.flatMap(([key, flag, owner]) => {
    const setting = settings[key];
    if (setting === undefined || Array.isArray(setting.origin) || setting.origin.source === "default" || owner.split(" and ").includes(provider)) return [];
    return [`${flag} ${String(setting.value)} applies to --provider ${owner} only; --provider ${provider} ignores it${hint[provider] ?? ""}.`];
  });
}
