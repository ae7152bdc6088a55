import { ConfigError } from "../types/index.js";
import type { McpWarning } from "./mcp-warning.js";

/** What every server entry may carry besides how to reach it. */
export interface McpServerTrust {
  /**
   * `untrusted`: declared by a workspace (a cloned repository), so its tools' descriptions are wrapped
   * as external content and their `readOnlyHint` and `idempotentHint` are ignored: every call may ask,
   * and in a durable run a call a crash interrupted pauses for a person (a trusted server's
   * `idempotentHint` re-runs it). Default: trusted.
   */
  trust?: "untrusted";
}

/** A server started as a child process that speaks MCP on its stdin/stdout. */
export interface McpStdioServerConfig extends McpServerTrust {
  command: string;
  args: string[];
  /** Added to a minimal inherited environment (PATH, HOME, …), never the whole of ours. */
  env: Record<string, string>;
  /** Where the process starts (default: the current directory). */
  cwd?: string;
}

/** A server reached over the streamable HTTP transport. */
export interface McpHttpServerConfig extends McpServerTrust {
  url: string;
  headers: Record<string, string>;
}

export type McpServerConfig = McpStdioServerConfig | McpHttpServerConfig;

/** Where a server's entry was read from: a workspace's file may not start programs. */
export type McpConfigOrigin = "user" | "workspace" | "flag" | "library";

/** The servers by name, as in Claude Code's and Cursor's `{"mcpServers": {...}}`. */
export type McpServersConfig = Record<string, McpServerConfig>;

export function isStdioServer(server: McpServerConfig): server is McpStdioServerConfig {
  return "command" in server;
}

/** Beyond these, a config is more likely a mistake (or an attack) than a setup. */
const maxServers = 64;
const maxNameLength = 64;

/**
 * Checks a parsed `{"mcpServers": {...}}` object (or its inner map) read from `source`. Entries that
 * cannot work are errors (the user must fix the file); a workspace's stdio servers are skipped with a
 * warning, because a cloned repository must not start programs on the user's machine.
 */
export function parseMcpServersConfig(
  value: unknown,
  source: string,
  origin: McpConfigOrigin,
  options: { workspacePrograms?: "refuse" | "keep" } = {},
): { servers: McpServersConfig; warnings: McpWarning[] } {
  const root = asRecord(value, `${source} must hold a JSON object like {"mcpServers": {"name": {"command": "npx", "args": ["-y", "some-server"]}}}.`);
  const entries = asRecord(root.mcpServers ?? root, `${source}: 'mcpServers' must be an object of servers by name.`);
  const names = Object.keys(entries);
  if (names.length > maxServers) throw new ConfigError("config_file_invalid", `${source}: ${names.length} MCP servers; at most ${maxServers} are read.`);
  const servers: McpServersConfig = {};
  const warnings: McpWarning[] = [];
  for (const name of names) {
    if (name.length === 0 || name.length > maxNameLength) {
      throw new ConfigError("config_file_invalid", `${source}: MCP server names must have 1 to ${maxNameLength} characters, got '${name.slice(0, 80)}'.`);
    }
    const entry = asRecord(entries[name], `${source}: MCP server '${name}' must be an object with "command" (and "args", "env") or "url" (and "headers").`);
    const server = parseServer(entry, `${source}: MCP server '${name}'`);
    // "keep": the caller asks the person before anything a workspace names is started (the CLI does).
    if (isStdioServer(server) && origin === "workspace" && options.workspacePrograms !== "keep") {
      warnings.push({
        code: "stdio_server_refused",
        server: name,
        message:
          `${source}: MCP server '${name}' starts a program (${server.command}), which a workspace's config may not do ` +
          "(a cloned repository could run anything). It was not started; move it to your user config or pass it with --mcp-config.",
      });
      continue;
    }
    servers[name] = server;
  }
  return { servers, warnings };
}

function parseServer(entry: Record<string, unknown>, where: string): McpServerConfig {
  // Kept through a second parse (the CLI's resolved servers handed to the library's config): only ever lowers trust.
  const trust: McpServerTrust = entry.trust === "untrusted" ? { trust: "untrusted" } : {};
  return { ...parseReachableServer(entry, where), ...trust };
}

function parseReachableServer(entry: Record<string, unknown>, where: string): McpServerConfig {
  if (entry.type === "sse") throw new ConfigError("config_file_invalid", `${where}: the SSE transport is not supported; use the server's streamable HTTP endpoint ("url").`);
  if (typeof entry.command === "string") {
    if (entry.command.trim() === "") throw new ConfigError("config_file_invalid", `${where}: "command" is empty.`);
    return {
      command: entry.command,
      args: stringList(entry.args, `${where}: "args"`),
      env: stringMap(entry.env, `${where}: "env"`),
      ...(typeof entry.cwd === "string" ? { cwd: entry.cwd } : {}),
    };
  }
  if (typeof entry.url === "string") {
    let url: URL;
    try {
      url = new URL(entry.url);
    } catch {
      throw new ConfigError("config_file_invalid", `${where}: "url" ${entry.url} is not a URL.`);
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new ConfigError("config_file_invalid", `${where}: "url" must be http:// or https://, got ${url.protocol}`);
    return { url: url.href, headers: stringMap(entry.headers, `${where}: "headers"`) };
  }
  throw new ConfigError("config_file_invalid", `${where} has neither "command" (a program to start) nor "url" (a streamable HTTP endpoint).`);
}

function asRecord(value: unknown, message: string): Record<string, unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) throw new ConfigError("config_file_invalid", message);
  return value as Record<string, unknown>;
}

function stringList(value: unknown, where: string): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((item) => typeof item === "string")) throw new ConfigError("config_file_invalid", `${where} must be a list of strings.`);
  return value;
}

function stringMap(value: unknown, where: string): Record<string, string> {
  if (value === undefined) return {};
  const record = asRecord(value, `${where} must be an object of strings.`);
  if (!Object.values(record).every((item) => typeof item === "string")) throw new ConfigError("config_file_invalid", `${where} must be an object of strings.`);
  return record as Record<string, string>;
}
