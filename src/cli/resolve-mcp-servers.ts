import { resolve } from "node:path";
// From the config parser itself, not the mcp index: resolving a config must not load the MCP SDK.
import { parseMcpServersConfig, type McpConfigOrigin, type McpServerConfig, type McpServersConfig } from "../mcp/mcp-config.js";
import { canonicalMcpServerDefinition } from "../mcp/mcp-server-identity.js";
import type { McpWarning } from "../mcp/mcp-warning.js";
import { ConfigError } from "../types/index.js";
import { readJsonFileText } from "../config/read-json-file-text.js";

/** The MCP servers of a command: the user's config, the workspace's (once approved), then `--mcp-config` files. */
export interface ResolvedMcpServers {
  /** The servers to connect; a workspace's approved ones carry `trust: "untrusted"`. */
  servers: McpServersConfig;
  /** Servers left out, for stderr. */
  warnings: McpWarning[];
  /**
   * A workspace's servers the user has not approved with this definition: never connected unless the
   * person says yes (approveWorkspaceMcpServers asks at a terminal and moves them into `servers`).
   */
  pending?: Record<string, { server: McpServerConfig; path: string }>;
  /** The workspace the approvals are recorded for. */
  workspace?: string;
}

/** A workspace's server the user approved, as the user's config records it (`mcpApprovals`). */
export interface McpApproval {
  workspace: string;
  server: string;
  definition: Record<string, unknown>;
  approvedAt?: string;
}

/** Whether `approvals` hold this exact definition of server `name` for `workspace`. */
export function isApprovedMcpServer(approvals: readonly McpApproval[], workspace: string, name: string, server: McpServerConfig): boolean {
  const wanted = canonicalMcpServerDefinition(server);
  return approvals.some(
    (approval) => approval.workspace === workspace && approval.server === name && canonicalMcpServerDefinition(approval.definition as unknown as McpServerConfig) === wanted,
  );
}

/**
 * Merges the `mcpServers` of the config files and of each `--mcp-config <file>` (relative to `cwd`);
 * a later source replaces an earlier server of the same name.
 */
export function resolveMcpServers(sources: {
  user?: { path: string; value: unknown };
  workspace?: { path: string; value: unknown; directory: string; approvals: readonly McpApproval[] };
  files: readonly string[];
  cwd: string;
}): ResolvedMcpServers {
  const servers: McpServersConfig = {};
  const warnings: McpWarning[] = [];
  const pending: NonNullable<ResolvedMcpServers["pending"]> = {};
  const add = (value: unknown, path: string, origin: McpConfigOrigin) => {
    const parsed = parseMcpServersConfig({ mcpServers: value }, path, origin);
    for (const name of Object.keys(parsed.servers)) delete pending[name];
    Object.assign(servers, parsed.servers);
    warnings.push(...parsed.warnings);
  };
  // A workspace's servers (programs too) wait for the user's yes, recorded with their whole definition
  // (issue 24: a cloned repository's URL server was connected silently, with the repository's headers).
  // The user's own servers win over a workspace's of the same name: a cloned repository must not
  // put its server's tools under a name the user trusts.
  const { workspace } = sources;
  if (workspace) {
    const parsed = parseMcpServersConfig({ mcpServers: workspace.value }, workspace.path, "workspace", { workspacePrograms: "keep" });
    for (const [name, server] of Object.entries(parsed.servers)) {
      if (isApprovedMcpServer(workspace.approvals, workspace.directory, name, server)) servers[name] = { ...server, trust: "untrusted" };
      else pending[name] = { server, path: workspace.path };
    }
  }
  if (sources.user) add(sources.user.value, sources.user.path, "user");
  for (const file of sources.files) {
    const path = resolve(sources.cwd, file);
    let value: unknown;
    try {
      value = JSON.parse(readJsonFileText(path));
    } catch (error) {
      throw new ConfigError("config_file_invalid", `--mcp-config ${file}: cannot read ${path} as JSON (${error instanceof Error ? error.message : String(error)}).`);
    }
    const inner = value !== null && typeof value === "object" && "mcpServers" in value ? (value as { mcpServers: unknown }).mcpServers : value;
    add(inner, path, "flag");
  }
  return { servers, warnings, ...(Object.keys(pending).length > 0 ? { pending } : {}), ...(workspace ? { workspace: workspace.directory } : {}) };
}
