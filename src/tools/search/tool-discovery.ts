import { derivedOf, type Message, type ToolDefinition, type UserMessage } from "../../types/index.js";

/** The name of the tool-search policy, on the notes it writes. */
export const toolSearchPolicyName = "tool-search";

/** The model-facing search tool's name. */
export const toolSearchToolName = "tool_search";

/** The stable proxy through which discovered tools are called on servers without native tool search. */
export const callToolName = "call_tool";

/**
 * The deferred tools whose definitions are in a context: read from the metadata of the discovery
 * messages (and MCP tool-list changes) the harness appended, never from text a model or tool could
 * also have written.
 */
export function discoveredToolNames(messages: readonly Message[]): Set<string> {
  const names = new Set<string>();
  const add = (list: unknown) => {
    if (Array.isArray(list)) for (const name of list) if (typeof name === "string") names.add(name);
  };
  for (const message of messages) {
    add(derivedOf(message, "tool_discovery")?.names);
    // A server's tool-list change announces its new tools with their schemas (and ends removed ones).
    const changed = derivedOf(message, "mcp_tools");
    if (changed) {
      add(changed.added);
      if (Array.isArray(changed.removed)) for (const name of changed.removed) names.delete(name);
    }
    const checkpoint = derivedOf(message, "checkpoint");
    // The data comes from a session file: only its names list is read, and only strings in it.
    if (checkpoint?.policy === toolSearchPolicyName) add((checkpoint.data as { names?: unknown } | null)?.names);
  }
  return names;
}

/** Most definitions a checkpoint carries across a compaction (the most recently found are kept). */
export const maxCheckpointTools = 50;

/**
 * After a compaction removed discovery messages, the found tools' definitions again (the model
 * keeps calling them without searching anew), as one harness message; undefined when none was found.
 */
export function createToolSearchCheckpoint(definitions: readonly ToolDefinition[], id: string, now: Date): UserMessage | undefined {
  if (definitions.length === 0) return undefined;
  const kept = definitions.slice(-maxCheckpointTools);
  const dropped = definitions.slice(0, definitions.length - kept.length).map((definition) => definition.name);
  const lines = kept.map((definition) => JSON.stringify({ name: definition.name, description: definition.description, parameters: definition.parameters }));
  const droppedNote = dropped.length === 0 ? "" : `\nNot carried over (search again if still needed): ${dropped.join(", ")}.`;
  return {
    role: "user",
    content: `<discovered_tools>\nTools found before the summarised part of this conversation, still available through ${callToolName} (kept by the harness):${droppedNote}\n${lines.join("\n")}\n</discovered_tools>`,
    meta: { id, origin: "harness", createdAt: now.toISOString(), derived: { kind: "checkpoint", policy: toolSearchPolicyName, data: { version: 1, names: kept.map((definition) => definition.name) } } },
  };
}

/**
 * The message that brings found tools' full definitions into the trajectory, right after the
 * `tool_search` result. One JSON object per line, keys in the prefix's canonical order, so the same
 * discovery gives the same bytes after a restart.
 */
export function createDiscoveryMessage(definitions: readonly ToolDefinition[], toolCallId: string, id: string, now: Date): UserMessage {
  const lines = definitions.map((definition) => JSON.stringify({ name: definition.name, description: definition.description, parameters: definition.parameters }));
  const content =
    `<discovered_tools>\n${lines.join("\n")}\n</discovered_tools>\n` +
    `These tools are now available. Call one through ${callToolName} with {"name": "<tool name>", "arguments": {…}}, the arguments matching its parameters.`;
  return {
    role: "user",
    content,
    meta: { id, origin: "harness", createdAt: now.toISOString(), derived: { kind: "tool_discovery", names: definitions.map((definition) => definition.name), toolCallId } },
  };
}
