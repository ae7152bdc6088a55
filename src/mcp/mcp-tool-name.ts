import { createHash } from "node:crypto";

/** OpenAI and Anthropic accept tool names of 1-64 letters, digits, '_' and '-'. */
const maxLength = 64;

/**
 * The name the model sees for an MCP tool: `mcp__<server>__<tool>` (Claude Code's shape). Characters
 * providers refuse become '_'; a name that is too long ends in a hash of the original. Two tools whose
 * names become equal are not renamed apart: `connectMcpServers` refuses the clash (issue 24 — a
 * workspace's server `git.hub` took the name, and the `allow` entry, of the user's `git_hub`).
 */
export function mcpToolName(server: string, tool: string): string {
  const plain = `mcp__${sanitize(server)}__${sanitize(tool)}`;
  if (plain.length <= maxLength) return plain;
  const suffix = `_${createHash("sha256").update(`${server}\u0000${tool}`).digest("hex").slice(0, 8)}`;
  return `${plain.slice(0, maxLength - suffix.length)}${suffix}`;
}

/** What every tool name of `server` starts with: `mcp__<server>__`. */
export function mcpToolPrefix(server: string): string {
  return `mcp__${sanitize(server)}__`;
}

function sanitize(text: string): string {
  const cleaned = text.replace(/[^a-zA-Z0-9_-]/g, "_");
  return cleaned === "" ? "_" : cleaned;
}
