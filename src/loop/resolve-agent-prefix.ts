import { composeContextPolicies } from "../context/compose-context-policies.js";
import type { ContextPolicy } from "../context/context-policy.js";
import { createStablePrefix, type StablePrefix } from "../context/stable-prefix.js";
import type { SystemPrompt, Tool } from "../types/index.js";
import { resolveAgentTools, type AgentToolsInput } from "./resolve-agent-tools.js";

export interface AgentPrefixInput extends Pick<AgentToolsInput, "deferTools" | "toolSearch"> {
  system: string | SystemPrompt;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tools of any argument type live in one list
  tools?: readonly Tool<any>[];
  context?: readonly ContextPolicy[];
}

/**
 * The stable prefix an agent with these options sends: the system prompt with the policies'
 * sections in its session part, and the caller's tools plus every policy's, sorted and frozen —
 * what `startSession` should record before `createAgent` starts sending. Deferred tools are left
 * out (tool search finds them; `call_tool` and `tool_search` are in). Pure.
 */
export function resolveAgentPrefix(input: AgentPrefixInput): StablePrefix {
  const resolved = resolveAgentTools(input);
  const policy = composeContextPolicies(...resolved.context);
  const tools = [...resolved.tools, ...(policy.tools ?? [])].filter((tool) => tool.deferred !== true);
  const base: SystemPrompt = typeof input.system === "string" ? { staticText: input.system } : input.system;
  const section = policySystemSection({ ...input, tools: resolved.tools, context: resolved.context });
  const system: SystemPrompt = section === undefined ? base : { staticText: base.staticText, sessionText: base.sessionText ? `${base.sessionText}\n\n${section}` : section };
  return createStablePrefix(system, tools);
}

/** The policies' stable sections as they go into the session part of the system prompt (undefined: none). */
export function policySystemSection(input: Omit<AgentPrefixInput, "system">): string | undefined {
  const resolved = resolveAgentTools(input);
  const policy = composeContextPolicies(...resolved.context);
  const tools = [...resolved.tools, ...(policy.tools ?? [])].filter((tool) => tool.deferred !== true);
  return policy.system?.({ toolNames: tools.map((tool) => tool.name).sort() });
}

/**
 * A stored system prompt (a resumed session's, which already holds the policies' sections) without
 * those sections, so the agent adding them again sends the same bytes as before.
 */
export function withoutPolicySections(system: string | SystemPrompt, section: string | undefined): string | SystemPrompt {
  if (section === undefined || typeof system === "string" || system.sessionText === undefined) return system;
  if (system.sessionText === section) return { staticText: system.staticText };
  const suffix = `\n\n${section}`;
  return system.sessionText.endsWith(suffix) ? { staticText: system.staticText, sessionText: system.sessionText.slice(0, -suffix.length) } : system;
}
