import { readFileSync } from "node:fs";
import { resolve } from "node:path";
// From the config parser itself, not the mcp index: resolving a config must not load the MCP SDK.
import { parseMcpServersConfig, type McpConfigOrigin, type McpServersConfig } from "../mcp/mcp-config.js";
import type { McpWarning } from "../mcp/mcp-warning.js";
import { ConfigError } from "../types/index.js";

/** The MCP servers of a command: the user's config, the workspace's (no programs), then `--mcp-config` files. */
export interface ResolvedMcpServers {
  servers: McpServersConfig;
  /** Servers left out (a workspace's stdio servers), for stderr. */
  warnings: McpWarning[];
}

/**
 * Merges the `mcpServers` of the config files and of each `--mcp-config <file>` (relative to `cwd`);
 * a later source replaces an earlier server of the same name.
 */
export function resolveMcpServers(sources: {
  user?: { path: string; value: unknown };
  workspace?: { path: string; value: unknown };
  files: readonly string[];
  cwd: string;
}): ResolvedMcpServers {
  const servers: McpServersConfig = {};
  const warnings: McpWarning[] = [];
  const add = (value: unknown, path: string, origin: McpConfigOrigin) => {
    const parsed = parseMcpServersConfig({ mcpServers: value }, path, origin);
    Object.assign(servers, parsed.servers);
    warnings.push(...parsed.warnings);
  };
  // The user's own servers win over a workspace's of the same name: a cloned repository must not
  // put its server's tools under a name the user trusts.
  if (sources.workspace) add(sources.workspace.value, sources.workspace.path, "workspace");
  if (sources.user) add(sources.user.value, sources.user.path, "user");
  for (const file of sources.files) {
    const path = resolve(sources.cwd, file);
    let value: unknown;
    try {
      value = JSON.parse(readFileSync(path, "utf8"));
    } catch (error) {
      throw new ConfigError("config_file_invalid", `--mcp-config ${file}: cannot read ${path} as JSON (${error instanceof Error ? error.message : String(error)}).`);
    }
    const inner = value !== null && typeof value === "object" && "mcpServers" in value ? (value as { mcpServers: unknown }).mcpServers : value;
    add(inner, path, "flag");
  }
  return { servers, warnings };
}
