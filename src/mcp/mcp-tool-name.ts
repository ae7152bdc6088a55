import { createHash } from "node:crypto";

/** OpenAI and Anthropic accept tool names of 1-64 letters, digits, '_' and '-'. */
const maxLength = 64;

/**
 * The name the model sees for an MCP tool: `mcp__<server>__<tool>` (Claude Code's shape), so tools of
 * different servers and ctxkit's own can never collide. Characters providers refuse become '_';
 * a name that is too long, or that became equal to another after that, ends in a hash of the original.
 */
export function mcpToolName(server: string, tool: string, taken: ReadonlySet<string> = new Set()): string {
  const plain = `mcp__${sanitize(server)}__${sanitize(tool)}`;
  if (plain.length <= maxLength && !taken.has(plain)) return plain;
  const suffix = `_${createHash("sha256").update(`${server}\u0000${tool}`).digest("hex").slice(0, 8)}`;
  return `${plain.slice(0, maxLength - suffix.length)}${suffix}`;
}

function sanitize(text: string): string {
  const cleaned = text.replace(/[^a-zA-Z0-9_-]/g, "_");
  return cleaned === "" ? "_" : cleaned;
}
