import type { ToolDefinition } from "../types/index.js";
import { sortKeys } from "../providers/shared/canonical-json.js";
import type { SystemPrompt } from "../types/model-request.js";

/** The part of every request that never changes within a session: system prompt and tool definitions. */
export interface StablePrefix {
  readonly system: Readonly<SystemPrompt>;
  readonly tools: readonly ToolDefinition[];
}

/**
 * Freezes the prefix once for a session: tools sorted by name (so registration order can never
 * reorder them), schemas key-sorted and deep-copied (so a caller mutating its schema object later
 * cannot change bytes already sent), and everything frozen.
 */
export function createStablePrefix(system: SystemPrompt | string, tools: readonly ToolDefinition[]): StablePrefix {
  const systemPrompt: SystemPrompt = typeof system === "string" ? { staticText: system } : { ...system };
  const frozenTools = [...tools]
    .sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0))
    .map((tool) =>
      deepFreeze({
        name: tool.name,
        description: tool.description,
        parameters: sortKeys(tool.parameters) as ToolDefinition["parameters"],
      }),
    );
  return deepFreeze({ system: systemPrompt, tools: frozenTools });
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const entry of Object.values(value)) deepFreeze(entry);
  }
  return value;
}
