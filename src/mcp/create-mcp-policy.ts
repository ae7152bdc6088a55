import type { ContextEdit, ContextPolicy } from "../context/context-policy.js";
import type { Message, UserMessage } from "../types/index.js";
import type { McpConnections, McpToolsChange } from "./connect-mcp-servers.js";

export const mcpPolicyName = "mcp";

/** Parameters of one announced tool beyond this are shortened (the model can still call it). */
const maxAnnouncedSchemaCharacters = 4_000;

export interface McpPolicyOptions {
  /**
   * Whether the message announcing tools that a `trust: "untrusted"` server added carries their
   * provenance, so the runtime guard asks while it is in the context (default true). The CLI turns it
   * off when the person trusts the workspace the server comes from: its words are then theirs.
   */
  untrustedServersTaint?: boolean;
}

/**
 * The context policy of MCP connections: when a server's tool list changes mid-session, the next
 * request gets an appended message naming the tools it added (with their schemas) and removed —
 * the `tools` array and the system prompt never change, so the cached prefix stays valid.
 */
export function createMcpPolicy(connections: Pick<McpConnections, "onToolsChanged">, options: McpPolicyOptions = {}): ContextPolicy & { dispose(): void } {
  const untrustedServersTaint = options.untrustedServersTaint ?? true;
  const pending: McpToolsChange[] = [];
  const dispose = connections.onToolsChanged((change) => pending.push(change));
  return {
    name: mcpPolicyName,
    // A server's late tools reach a fork through the shared tool search; the delta messages are the parent's.
    inherit: "never",
    prepareContext(state) {
      if (pending.length === 0) return undefined;
      const changes = pending.splice(0, pending.length);
      const messages = changes.map((change, index) =>
        createToolsChangedMessage(untrustedServersTaint ? change : { ...change, untrusted: undefined }, idFor(state.messages, index), state.now),
      );
      return [{ type: "append", messages } satisfies ContextEdit];
    },
    dispose,
  };
}

/** The delta message for one server's change (exported for tests and for replaying a change). */
export function createToolsChangedMessage(change: McpToolsChange, id: string, now: Date): UserMessage {
  const server = escapeText(change.server);
  const lines = [`<mcp_tools_changed server="${server.replaceAll('"', "&quot;")}">`];
  if (change.added.length > 0) {
    lines.push(
      `The MCP server '${server}' added tools. They are not in your tool list; call them through call_tool with the name and arguments below.`,
    );
    for (const tool of change.added) {
      const schema = JSON.stringify(tool.parameters);
      const shown = schema.length > maxAnnouncedSchemaCharacters ? `${schema.slice(0, maxAnnouncedSchemaCharacters)} […]` : schema;
      lines.push(`- ${tool.name}: ${escapeText(tool.description)}`, `  parameters: ${escapeText(shown)}`);
    }
  }
  if (change.removed.length > 0) lines.push(`The MCP server '${server}' removed these tools; calls to them now fail: ${change.removed.join(", ")}.`);
  lines.push("</mcp_tools_changed>");
  return {
    role: "user",
    content: lines.join("\n"),
    meta: {
      id,
      origin: "harness",
      createdAt: now.toISOString(),
      derived: { kind: "mcp_tools", server: change.server, added: change.added.map((tool) => tool.name), removed: change.removed },
      // A workspace's server wrote these descriptions: while they are in the context, the runtime guard asks.
      ...(change.untrusted === true && change.added.length > 0 ? { provenance: { untrusted: [{ source: `the tools the MCP server '${change.server}' added`, trust: "external" as const }] } } : {}),
    },
  };
}

/** Unique in the session: derived from the message it follows (a restart replays the same ids). */
function idFor(messages: readonly Message[], index: number): string {
  const last = messages.at(-1)?.meta.id ?? "start";
  return `${last}~mcp-tools${index === 0 ? "" : `-${index}`}`;
}

/** Server text must not close or forge the harness's tags. */
function escapeText(text: string): string {
  return text.replaceAll("<", "&lt;");
}
