import { createHash } from "node:crypto";
import type { McpServerConfig } from "./mcp-config.js";

/**
 * A server's definition as one canonical JSON text (keys sorted at every level, the `trust` mark left
 * out): what an approval records and compares, so any change to the command, its arguments, its
 * environment, the URL or a header is a different server that must be approved again.
 */
export function canonicalMcpServerDefinition(server: McpServerConfig): string {
  const { trust: _trust, ...definition } = server;
  return canonical(definition);
}

/** The first 16 hex digits of the SHA-256 of the canonical definition: the server's identity in `allow` entries. */
export function mcpServerDefinitionHash(server: McpServerConfig): string {
  return createHash("sha256").update(canonicalMcpServerDefinition(server)).digest("hex").slice(0, 16);
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, item]) => item !== undefined);
    return `{${entries.sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0)).map(([key, item]) => `${JSON.stringify(key)}:${canonical(item)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}
