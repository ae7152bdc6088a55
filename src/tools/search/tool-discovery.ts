import { derivedOf, type Message, type ToolDefinition, type UserMessage } from "../../types/index.js";

/** The name of the tool-search policy, on the notes it writes. */
export const toolSearchPolicyName = "tool-search";

/** The model-facing search tool's name. */
export const toolSearchToolName = "tool_search";

/** The stable proxy through which discovered tools are called on servers without native tool search. */
export const callToolName = "call_tool";

/**
 * The deferred tools whose definitions are in a context: read from the metadata of the discovery
 * messages the harness appended, never from text a model or tool could also have written.
 */
export function discoveredToolNames(messages: readonly Message[]): Set<string> {
  const names = new Set<string>();
  for (const message of messages) {
    const discovery = derivedOf(message, "tool_discovery");
    if (discovery && Array.isArray(discovery.names)) for (const name of discovery.names) if (typeof name === "string") names.add(name);
  }
  return names;
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
