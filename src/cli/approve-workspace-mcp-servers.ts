import { renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { escapeForTerminal } from "../context/escape-for-terminal.js";
import { isStdioServer, type McpServerConfig, type McpServersConfig } from "../mcp/mcp-config.js";
import { canonicalMcpServerDefinition, mcpServerDefinitionHash } from "../mcp/mcp-server-identity.js";
import { mcpToolPrefix } from "../mcp/mcp-tool-name.js";
import { PRIVATE_DIRECTORY_MODE, PRIVATE_FILE_MODE } from "../types/private-file-modes.js";
import { ConfigError } from "../types/index.js";
import { readJsonFileText } from "../config/read-json-file-text.js";
import type { McpApproval, ResolvedMcpServers } from "./resolve-mcp-servers.js";
import { makeDirectoryTreeSync } from "../types/make-directory-tree.js";
import { nodeErrorCode } from "../types/node-error-code.js";

export interface McpApprovalPrompt {
  /** A person is at a terminal (stdin is a TTY): only then is the question asked. */
  interactive: boolean;
  readLine: () => Promise<string | undefined>;
  output: NodeJS.WritableStream;
  /** `~/.config/ctxkit/config.json`, where a yes is kept. */
  userConfigPath: string;
  clock?: () => Date;
}

/**
 * Asks, at a terminal, about each MCP server a workspace's config declares that the user has not
 * approved with this exact definition (issue 24: a cloned repository's URL server was connected
 * silently, with the repository's headers). A yes is recorded in the user's config (`mcpApprovals`:
 * workspace, name, whole definition), so the next run connects it without asking and a changed
 * definition asks again; the server then joins `servers` marked untrusted. A no, or no terminal,
 * leaves it out; the returned notes (one line each) say how to approve.
 */
export async function approveWorkspaceMcpServers(mcp: ResolvedMcpServers, prompt: McpApprovalPrompt): Promise<{ mcp: ResolvedMcpServers; notes: string[] }> {
  const pending = Object.entries(mcp.pending ?? {});
  if (pending.length === 0 || mcp.workspace === undefined) return { mcp, notes: [] };
  const servers: McpServersConfig = { ...mcp.servers };
  const notes: string[] = [];
  for (const [name, { server, path }] of pending) {
    const approved = prompt.interactive && (await ask(name, server, path, prompt));
    if (approved) {
      recordApproval(prompt.userConfigPath, { workspace: mcp.workspace, server: name, definition: JSON.parse(canonicalMcpServerDefinition(server)) as Record<string, unknown>, approvedAt: (prompt.clock ?? (() => new Date()))().toISOString() });
      servers[name] = { ...server, trust: "untrusted" };
      continue;
    }
    notes.push(
      `mcp: the MCP server '${name}' of ${path} was not ${isStdioServer(server) ? "started" : "connected"}: a workspace's server needs your approval` +
        `${prompt.interactive ? "" : `; run ctxkit chat or run in this folder at a terminal to be asked (a yes is kept in ${prompt.userConfigPath})`}.`,
    );
  }
  return { mcp: { ...mcp, servers, pending: {} }, notes };
}

async function ask(name: string, server: McpServerConfig, path: string, prompt: McpApprovalPrompt): Promise<boolean> {
  const shown = (text: string) => escapeForTerminal(text.length > 200 ? `${text.slice(0, 200)}…` : text);
  const lines = isStdioServer(server)
    ? [`starts: ${shown([server.command, ...server.args].join(" "))}`, ...Object.entries(server.env).map(([key, value]) => `env: ${shown(key)}=${shown(value)}`)]
    : [`connects to: ${shown(server.url)}`, ...Object.entries(server.headers).map(([key, value]) => `header: ${shown(key)}: ${shown(value)}`)];
  prompt.output.write(
    `\n? ${path} (the workspace's config) declares the MCP server '${shown(name)}':\n${lines.map((line) => `    ${line}\n`).join("")}` +
      `  Its tools' calls will still ask you; allow entries name them as ${shown(mcpToolPrefix(name))}<tool>@${mcpServerDefinitionHash(server)}.\n`,
  );
  while (true) {
    prompt.output.write(`  ${isStdioServer(server) ? "Start" : "Connect to"} it, now and in later runs while it stays the same? [y/n]: `);
    const answer = (await prompt.readLine())?.trim().toLowerCase();
    if (answer === undefined || answer === "n" || answer === "no") {
      prompt.output.write("  not approved\n");
      return false;
    }
    if (answer === "y" || answer === "yes") {
      prompt.output.write(`  approved (kept in ${prompt.userConfigPath})\n`);
      return true;
    }
  }
}

/** Adds (or replaces, for the same workspace and name) an approval in the user's config file, written private and whole. */
function recordApproval(userConfigPath: string, approval: McpApproval): void {
  let config: Record<string, unknown> = {};
  try {
    config = JSON.parse(readJsonFileText(userConfigPath)) as Record<string, unknown>;
  } catch (error) {
    if (nodeErrorCode(error) !== "ENOENT") {
      throw new ConfigError("config_file_invalid", `${userConfigPath}: cannot record the approval of MCP server '${approval.server}' (${(error as Error).message}).`);
    }
  }
  const kept = (Array.isArray(config.mcpApprovals) ? (config.mcpApprovals as McpApproval[]) : []).filter(
    (entry) => !(entry.workspace === approval.workspace && entry.server === approval.server),
  );
  config.mcpApprovals = [...kept, approval];
  makeDirectoryTreeSync(dirname(userConfigPath), PRIVATE_DIRECTORY_MODE);
  const temporary = `${userConfigPath}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(config, null, 2)}\n`, { mode: PRIVATE_FILE_MODE });
  renameSync(temporary, userConfigPath);
}

/**
 * The `allow` entries that apply (issue 24: a workspace's server took the name, and with it the `allow`
 * entry, of the user's). A plain `mcp__<server>__<tool>` entry covers the tools of the user's own
 * servers only; a workspace's server's tool is covered only by `mcp__<server>__<tool>@<hash>`, the hash
 * of the definition the user approved. Entries that cover nothing are left out and named.
 */
export function bindAllowEntries(allow: readonly string[], servers: McpServersConfig): { allow: string[]; notes: string[] } {
  const untrusted = Object.entries(servers).filter(([, server]) => server.trust === "untrusted");
  const kept: string[] = [];
  const notes: string[] = [];
  for (const entry of allow) {
    const bound = /^(mcp__.+)@([0-9a-f]{16})$/.exec(entry);
    if (bound) {
      const [, tool, hash] = bound;
      if (untrusted.some(([name, server]) => tool!.startsWith(mcpToolPrefix(name)) && mcpServerDefinitionHash(server) === hash)) kept.push(tool!);
      else kept.push(entry);
      continue;
    }
    const owner = untrusted.find(([name]) => entry.startsWith(mcpToolPrefix(name)));
    if (owner) {
      notes.push(`allow: '${entry}' does not cover the tools of '${owner[0]}', a workspace's MCP server; name it as ${entry}@${mcpServerDefinitionHash(owner[1])} to approve it.`);
      continue;
    }
    kept.push(entry);
  }
  return { allow: kept, notes };
}
