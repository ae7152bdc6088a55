import type { ResolvedConfig } from "../resolve-config.js";
import type { McpServersConfig } from "../../mcp/mcp-config.js";
import { configKeys } from "../../config/config-schema.js";
import type { SettingOrigin } from "./resolve-settings.js";

/** Server env and headers often hold tokens: show where each server is, never its secrets. */
function describeMcpServers(servers: McpServersConfig): Record<string, string> {
  return Object.fromEntries(Object.entries(servers).map(([name, server]) => [name, "url" in server ? server.url : [server.command, ...server.args].join(" ")]));
}

/** The configuration as `ctxkit config` prints it, with secrets masked. */
export function describeConfig(config: ResolvedConfig): Record<string, unknown> {
  const { sources, apiKey, mcp, settings: _settings, warnings: _warnings, ...rest } = config;
  return { ...rest, apiKey: apiKey ? maskSecret(apiKey) : "(not set)", mcpServers: describeMcpServers(mcp.servers), sources };
}

/**
 * Every config key's resolved value with where it came from, for `ctxkit config --json`: the flag,
 * the variable, the workspace's or the user's file by path, or the default; `unset` when nothing
 * sets it and it has no default. Secrets are masked as in `ctxkit config`.
 */
export function describeSettings(config: ResolvedConfig): Record<string, unknown> {
  const settings: Record<string, unknown> = {};
  for (const key of configKeys) {
    const setting = config.settings[key];
    if (setting === undefined) {
      settings[key] = { source: "unset" };
      continue;
    }
    const value = key === "apiKey" ? maskSecret(String(setting.value)) : key === "mcpServers" ? describeMcpServers(config.mcp.servers) : setting.value;
    settings[key] = Array.isArray(setting.origin) ? { value, sources: setting.origin.map(originFields) } : { value, ...originFields(setting.origin) };
  }
  return {
    workspace: { value: config.workspace },
    ...(config.sessionId ? { session: { value: config.sessionId, source: "flag", flag: "--session" } } : {}),
    configFiles: config.configFiles,
    settings,
    warnings: config.warnings,
  };
}

function originFields(origin: SettingOrigin): Record<string, string> {
  return { ...origin };
}

export function maskSecret(secret: string): string {
  // Short keys show only their end, so the mask never reveals most of a key.
  if (secret.length < 16) return `…${secret.slice(-2)}`;
  return `${secret.slice(0, 3)}…${secret.slice(-4)}`;
}
