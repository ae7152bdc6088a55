import type { DeferToolsMode } from "../tools/search/apply-defer-tools.js";
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { vendorProfiles } from "../providers/openai-compatible/vendor-profiles.js";
import { isInside } from "../tools/workspace-path.js";
import { CtxkitError, ConfigError } from "../types/index.js";
import { parsePositiveInteger, type CliFlags } from "./cli-options.js";
import { compressionPolicyNames, isCompressionPolicyName, type CompressionPolicyName } from "../context/compression/index.js";
import { resolveMcpServers, type ResolvedMcpServers } from "./resolve-mcp-servers.js";

export const providerNames = ["openai-compatible", "openai-responses", "anthropic", "llama"] as const;
export const vendorNames = ["openai", "vllm", "ollama", "llamacpp", "deepseek", "kimi", "glm", "openrouter"] as const;
export type ProviderName = (typeof providerNames)[number];
export type VendorName = (typeof vendorNames)[number];

export const cacheTtls = ["5m", "1h"] as const;
export type CacheTtl = (typeof cacheTtls)[number];

export const statusBarModes = ["auto", "replace", "append", "off"] as const;

/** Which parts of the agent status bar are on and how it is sent (see `createStatusBar`). */
export interface StatusBarConfig {
  mode: (typeof statusBarModes)[number];
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

export type ConfigSource = "flag" | "environment" | "workspace config" | "user config" | "default";

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
  /** How content from outside is handled (source tags, the runtime guard; see ctxkit/security). */
  untrustedContent: UntrustedContentConfig;
  /** Skill directories given with `--skills` (absolute), searched before the standard places. */
  skillDirectories: string[];
  /** MCP servers from the config files' `mcpServers` and `--mcp-config` (a workspace's may not start programs). */
  mcp: ResolvedMcpServers;
  /** `--defer-tools`: which tools are kept out of `tools` and found with tool_search (absent: none but those marked). */
  deferTools?: DeferToolsMode;
  sources: Partial<Record<keyof Omit<ResolvedConfig, "sources">, ConfigSource>>;
  configFiles: string[];
}

/** The keys a `ctxkit.config.json` may hold. */
interface ConfigFile {
  provider?: string;
  vendor?: string;
  baseURL?: string;
  model?: string;
  apiKey?: string;
  maxIterations?: number;
  contextWindow?: number;
  compression?: string;
  tools?: string[];
  allow?: string[];
  dataDir?: string;
  statusBar?: string;
  mcpServers?: Record<string, unknown>;
  allowLoopbackFetch?: boolean;
  trustWorkspace?: boolean;
  externalTools?: string[];
  untrustedContentNotice?: boolean;
}

const configFileKeys: Record<keyof ConfigFile, "string" | "number" | "boolean" | "string[]" | "object"> = {
  provider: "string",
  vendor: "string",
  baseURL: "string",
  model: "string",
  apiKey: "string",
  maxIterations: "number",
  contextWindow: "number",
  compression: "string",
  tools: "string[]",
  allow: "string[]",
  dataDir: "string",
  statusBar: "string",
  mcpServers: "object",
  allowLoopbackFetch: "boolean",
  trustWorkspace: "boolean",
  externalTools: "string[]",
  untrustedContentNotice: "boolean",
};

export const defaultToolNames = ["read_file", "write_file", "edit_file", "list_dir", "glob", "grep", "web_fetch"];

/**
 * Resolves configuration from flags, then environment variables, then `ctxkit.config.json` in the
 * workspace, then the user's config file (`$XDG_CONFIG_HOME/ctxkit/config.json`), then defaults.
 */
export function resolveConfig(
  flags: CliFlags,
  environment: NodeJS.ProcessEnv = process.env,
  options: { readConfigFiles?: boolean; /** What relative paths are relative to (the CLI's io.cwd). */ cwd?: string } = {},
): ResolvedConfig {
  const cwd = options.cwd ?? process.cwd();
  const workspace = resolve(cwd, flags.workspace ?? environment.CTXKIT_WORKSPACE ?? cwd);
  const userConfigPath = join(environment.XDG_CONFIG_HOME ?? join(homedir(), ".config"), "ctxkit", "config.json");
  const workspaceConfigPath = join(workspace, "ctxkit.config.json");
  const readFiles = options.readConfigFiles !== false;
  const workspaceConfig = readFiles ? checkWorkspaceConfig(readConfigFile(workspaceConfigPath), workspaceConfigPath) : undefined;
  const userConfig = readFiles ? readConfigFile(userConfigPath) : undefined;
  const sources: ResolvedConfig["sources"] = {};

  function pick<T>(key: keyof ResolvedConfig, candidates: Array<[T | undefined, ConfigSource]>): T | undefined {
    for (const [value, source] of candidates) {
      if (value !== undefined && value !== "") {
        sources[key as keyof typeof sources] = source;
        return value;
      }
    }
    return undefined;
  }

  const provider = pick<string>("provider", [
    [flags.provider, "flag"],
    [environment.CTXKIT_PROVIDER, "environment"],
    [workspaceConfig?.provider, "workspace config"],
    [userConfig?.provider, "user config"],
    ["openai-compatible", "default"],
  ])!;
  if (!providerNames.includes(provider as ProviderName)) {
    throw new ConfigError("option_invalid", `Unknown provider '${provider}'. Use one of: ${providerNames.join(", ")}.`);
  }
  const vendor = pick<string>("vendor", [
    [flags.vendor, "flag"],
    [environment.CTXKIT_VENDOR, "environment"],
    [workspaceConfig?.vendor, "workspace config"],
    [userConfig?.vendor, "user config"],
    ["openai", "default"],
  ])!;
  if (!vendorNames.includes(vendor as VendorName)) {
    throw new ConfigError("option_invalid", `Unknown vendor '${vendor}'. Use one of: ${vendorNames.join(", ")}.`);
  }
  const isAnthropic = provider === "anthropic";
  const baseURL = pick<string>("baseURL", [
    [flags["base-url"], "flag"],
    [environment.CTXKIT_BASE_URL, "environment"],
    [isAnthropic ? environment.ANTHROPIC_BASE_URL : vendor === "openai" || provider === "openai-responses" ? environment.OPENAI_BASE_URL : undefined, "environment"],
    [workspaceConfig?.baseURL, "workspace config"],
    [userConfig?.baseURL, "user config"],
  ]);
  const apiKey = pick<string>("apiKey", [
    [flags["api-key"], "flag"],
    [environment.CTXKIT_API_KEY, "environment"],
    [isAnthropic ? environment.ANTHROPIC_API_KEY : vendor === "openai" || provider === "openai-responses" ? environment.OPENAI_API_KEY : undefined, "environment"],
    // The vendor's own variable (DEEPSEEK_API_KEY, MOONSHOT_API_KEY, …), so `ctxkit config` shows the key the provider will use.
    [isAnthropic ? undefined : vendorProfiles[vendor as VendorName].apiKeyEnvVars.map((name) => environment[name]).find((value) => value), "environment"],
    [workspaceConfig?.apiKey, "workspace config"],
    [userConfig?.apiKey, "user config"],
  ]);
  const model = pick<string>("model", [
    [flags.model, "flag"],
    [environment.CTXKIT_MODEL, "environment"],
    [workspaceConfig?.model, "workspace config"],
    [userConfig?.model, "user config"],
  ]);
  const modelPath = pick<string>("modelPath", [
    [flags["model-path"], "flag"],
    [environment.CTXKIT_MODEL_PATH, "environment"],
  ]);
  const maxIterations = pick<number>("maxIterations", [
    [parsePositiveInteger(flags["max-iterations"], "--max-iterations"), "flag"],
    [parsePositiveInteger(environment.CTXKIT_MAX_ITERATIONS, "CTXKIT_MAX_ITERATIONS"), "environment"],
    [workspaceConfig?.maxIterations, "workspace config"],
    [userConfig?.maxIterations, "user config"],
    [50, "default"],
  ])!;
  const contextWindow = pick<number>("contextWindow", [
    [parsePositiveInteger(flags["context-window"], "--context-window"), "flag"],
    [parsePositiveInteger(environment.CTXKIT_CONTEXT_WINDOW, "CTXKIT_CONTEXT_WINDOW"), "environment"],
    [workspaceConfig?.contextWindow, "workspace config"],
    [userConfig?.contextWindow, "user config"],
  ]);
  const compression = pick<string>("compression", [
    [flags.compression, "flag"],
    [environment.CTXKIT_COMPRESSION, "environment"],
    [workspaceConfig?.compression, "workspace config"],
    [userConfig?.compression, "user config"],
    ["ctxkit", "default"],
  ])!;
  if (!isCompressionPolicyName(compression)) {
    throw new ConfigError("option_invalid", `Unknown compression policy '${compression}'. Use one of: ${compressionPolicyNames.join(", ")}.`);
  }
  const tools = pick<string[]>("tools", [
    [flags.tools === undefined ? undefined : expandToolList(flags.tools.split(",")), "flag"],
    [environment.CTXKIT_TOOLS === undefined ? undefined : expandToolList(environment.CTXKIT_TOOLS.split(",")), "environment"],
    [workspaceConfig?.tools && expandToolList(workspaceConfig.tools), "workspace config"],
    [userConfig?.tools && expandToolList(userConfig.tools), "user config"],
    [defaultToolNames, "default"],
  ])!;
  const dataDir = resolve(
    workspace,
    pick<string>("dataDir", [
      [flags["data-dir"], "flag"],
      [environment.CTXKIT_DATA_DIR, "environment"],
      [workspaceConfig?.dataDir, "workspace config"],
      [".ctxkit", "default"],
    ])!,
  );
  const allow = [...(workspaceConfig?.allow ?? []), ...(userConfig?.allow ?? [])];
  const allowLoopbackFetch = pick<boolean>("allowLoopbackFetch", [
    [flags["allow-loopback-fetch"], "flag"],
    [environment.CTXKIT_ALLOW_LOOPBACK_FETCH === undefined ? undefined : ["1", "true", "yes"].includes(environment.CTXKIT_ALLOW_LOOPBACK_FETCH.toLowerCase()), "environment"],
    [userConfig?.allowLoopbackFetch, "user config"],
    [false, "default"],
  ])!;
  const requestTimeout = parseSeconds(flags["request-timeout"] ?? environment.CTXKIT_REQUEST_TIMEOUT, "--request-timeout");
  const idleTimeout = parseSeconds(flags["idle-timeout"] ?? environment.CTXKIT_IDLE_TIMEOUT, "--idle-timeout");
  const cacheTtl = flags["cache-ttl"] ?? environment.CTXKIT_CACHE_TTL ?? "5m";
  if (!cacheTtls.includes(cacheTtl as CacheTtl)) {
    throw new ConfigError("option_invalid", `--cache-ttl must be 5m or 1h (Anthropic's two cache lifetimes), got '${cacheTtl}'.`);
  }
  const cacheKey = flags["cache-key"] ?? environment.CTXKIT_CACHE_KEY;
  const statusBarMode = pick<string>("statusBar", [
    [flags["status-bar"], "flag"],
    [environment.CTXKIT_STATUS_BAR, "environment"],
    [workspaceConfig?.statusBar, "workspace config"],
    [userConfig?.statusBar, "user config"],
    ["auto", "default"],
  ])!;
  if (!statusBarModes.includes(statusBarMode as StatusBarConfig["mode"])) {
    throw new ConfigError("option_invalid", `Unknown status bar mode '${statusBarMode}'. Use one of: ${statusBarModes.join(", ")}.`);
  }
  return {
    provider: provider as ProviderName,
    vendor: vendor as VendorName,
    ...(baseURL ? { baseURL } : {}),
    ...(model ? { model } : {}),
    ...(modelPath ? { modelPath: resolve(cwd, modelPath) } : {}),
    ...(apiKey ? { apiKey } : {}),
    workspace,
    dataDir,
    timeouts: {
      ...(requestTimeout === undefined ? {} : { firstByteMs: requestTimeout }),
      ...(idleTimeout === undefined ? {} : { idleMs: idleTimeout }),
    },
    ...(flags.session ? { sessionId: flags.session } : {}),
    cache: { ttl: cacheTtl as CacheTtl, ...(cacheKey ? { key: cacheKey } : {}) },
    maxIterations,
    ...(contextWindow ? { contextWindow } : {}),
    compression,
    tools,
    yes: flags.yes === true,
    repair: flags.repair === true,
    subAgents: flags["sub-agents"] !== false,
    allow,
    statusBar: {
      mode: statusBarMode as StatusBarConfig["mode"],
      timestamps: flags.timestamps !== false,
      counters: flags.counter !== false,
      todo: flags.todo !== false,
      detailedErrors: flags.errors !== false,
      systemState: flags.state !== false,
    },
    allowLoopbackFetch,
    untrustedContent: {
      trustWorkspace: flags["trust-workspace"] === true || userConfig?.trustWorkspace === true,
      externalTools: [...new Set([...(workspaceConfig?.externalTools ?? []), ...(userConfig?.externalTools ?? [])])],
      notice: userConfig?.untrustedContentNotice !== false,
    },
    skillDirectories: (flags.skills ?? []).map((directory) => resolve(workspace, directory)),
    mcp: resolveMcpServers({
      ...(userConfig?.mcpServers ? { user: { path: userConfigPath, value: userConfig.mcpServers } } : {}),
      ...(workspaceConfig?.mcpServers ? { workspace: { path: workspaceConfigPath, value: workspaceConfig.mcpServers } } : {}),
      files: flags["mcp-config"] ?? [],
      cwd,
    }),
    ...(flags["defer-tools"] === undefined ? {} : { deferTools: parseDeferTools(flags["defer-tools"]) }),
    sources,
    configFiles: [workspaceConfig && workspaceConfigPath, userConfig && userConfigPath].filter((path): path is string => Boolean(path)),
  };
}

function parseDeferTools(value: string): DeferToolsMode {
  if (value === "auto" || value === "all" || value === "off") return value;
  throw new ConfigError("option_invalid", `Unknown --defer-tools mode '${value}'. Use one of: auto, all, off.`);
}

/** Seconds (fractions allowed; 0 turns the limit off) as milliseconds. */
function parseSeconds(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const seconds = Number(value);
  if (value.trim() === "" || !Number.isFinite(seconds) || seconds < 0) {
    throw new CtxkitError("option_invalid", `${flag} must be a number of seconds ≥ 0 (0 turns the limit off), got '${value}'.`);
  }
  return Math.round(seconds * 1000);
}

/** `default` stands for the standard tool set; `all` adds `bash`. */
function expandToolList(names: string[]): string[] {
  const expanded = names.flatMap((name) => {
    const trimmed = name.trim();
    if (trimmed === "default") return defaultToolNames;
    if (trimmed === "all") return [...defaultToolNames, "bash"];
    return trimmed === "" ? [] : [trimmed];
  });
  return [...new Set(expanded)];
}

/**
 * A workspace's config file comes with the repository, which may not be the user's own: it must not
 * approve commands on the user's behalf (`allow`), nor send the user's API key from the environment
 * to a server it names (`baseURL` off this machine). Those belong in the user's config or flags.
 */
function checkWorkspaceConfig(config: ConfigFile | undefined, path: string): ConfigFile | undefined {
  if (config === undefined) return undefined;
  if (config.allow !== undefined && config.allow.length > 0) {
    throw new ConfigError(
      "config_file_invalid",
      `${path}: 'allow' is not read from a workspace's config (a cloned repository could approve its own commands). ` +
        "Move it to ~/.config/ctxkit/config.json, or pass --yes.",
    );
  }
  if (config.allowLoopbackFetch !== undefined) {
    throw new ConfigError(
      "config_file_invalid",
      `${path}: 'allowLoopbackFetch' is not read from a workspace's config (a cloned repository could point the model at services on your machine). ` +
        "Move it to ~/.config/ctxkit/config.json, or pass --allow-loopback-fetch.",
    );
  }
  if (config.untrustedContentNotice !== undefined) {
    throw new ConfigError(
      "config_file_invalid",
      `${path}: 'untrustedContentNotice' is not read from a workspace's config (a cloned repository could remove the notice that its files are data). ` +
        "Move it to ~/.config/ctxkit/config.json.",
    );
  }
  if (config.trustWorkspace !== undefined) {
    throw new ConfigError(
      "config_file_invalid",
      `${path}: 'trustWorkspace' is not read from a workspace's config (a cloned repository could vouch for itself). ` +
        "Move it to ~/.config/ctxkit/config.json, or pass --trust-workspace.",
    );
  }
  if (config.baseURL !== undefined && !isLoopbackURL(config.baseURL)) {
    throw new ConfigError(
      "config_file_invalid",
      `${path}: 'baseURL' ${config.baseURL} is not on this machine; a workspace's config may only name a local server ` +
        "(127.0.0.1, localhost, [::1]) so that a cloned repository cannot redirect your API key. Pass --base-url or use ~/.config/ctxkit/config.json.",
    );
  }
  if (config.dataDir !== undefined && !isInsideDirectory(dirname(path), resolve(dirname(path), config.dataDir))) {
    throw new CtxkitError(
      "option_invalid",
      `${path}: 'dataDir' ${config.dataDir} is outside the workspace; a workspace's config may only keep sessions inside it ` +
        "(a cloned repository could otherwise make ctxkit write your conversations elsewhere). Pass --data-dir or set CTXKIT_DATA_DIR.",
    );
  }
  return config;
}

/** Lexically inside, and not through a symbolic link to outside either (checked at the nearest existing ancestor). */
function isInsideDirectory(parent: string, child: string): boolean {
  if (!isInside(parent, child)) return false;
  let existing = child;
  while (!existsSync(existing) && dirname(existing) !== existing) existing = dirname(existing);
  return isInside(realpathSync(parent), realpathSync(existing));
}

function isLoopbackURL(value: string): boolean {
  try {
    const host = new URL(value).hostname;
    return host === "localhost" || host === "[::1]" || host === "::1" || /^127\.\d+\.\d+\.\d+$/.test(host);
  } catch {
    return false;
  }
}

function readConfigFile(path: string): ConfigFile | undefined {
  if (!existsSync(path)) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new ConfigError("config_file_invalid", `${path} is not valid JSON (${error instanceof Error ? error.message : String(error)}). Fix or remove it.`);
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new ConfigError("config_file_invalid", `${path} must hold a JSON object like {"model": "qwen3:8b"}.`);
  }
  for (const [key, value] of Object.entries(parsed)) {
    const expected = configFileKeys[key as keyof ConfigFile];
    if (!expected) {
      throw new ConfigError("config_file_invalid", `${path}: unknown key '${key}'. Known keys: ${Object.keys(configFileKeys).join(", ")}.`);
    }
    const ok =
      expected === "string[]" ? Array.isArray(value) && value.every((item) => typeof item === "string")
      : expected === "object" ? value !== null && typeof value === "object" && !Array.isArray(value)
      : typeof value === expected;
    if (!ok) throw new ConfigError("config_file_invalid", `${path}: '${key}' must be a ${expected === "string[]" ? "list of strings" : expected}.`);
  }
  return parsed as ConfigFile;
}

/** The configuration as `ctxkit config` prints it, with secrets masked. */
export function describeConfig(config: ResolvedConfig): Record<string, unknown> {
  const { sources, apiKey, mcp, ...rest } = config;
  // Server env and headers often hold tokens: show where each server is, never its secrets.
  const mcpServers = Object.fromEntries(Object.entries(mcp.servers).map(([name, server]) => [name, "url" in server ? server.url : [server.command, ...server.args].join(" ")]));
  return { ...rest, apiKey: apiKey ? maskSecret(apiKey) : "(not set)", mcpServers, sources };
}

export function maskSecret(secret: string): string {
  // Short keys show only their end, so the mask never reveals most of a key.
  if (secret.length < 16) return `…${secret.slice(-2)}`;
  return `${secret.slice(0, 3)}…${secret.slice(-4)}`;
}
