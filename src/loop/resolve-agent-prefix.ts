import { composeContextPolicies } from "../context/compose-context-policies.js";
import type { ContextPolicy } from "../context/context-policy.js";
import { createStablePrefix, type StablePrefix } from "../context/stable-prefix.js";
import type { SystemPrompt, Tool } from "../types/index.js";

export interface AgentPrefixInput {
  system: string | SystemPrompt;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tools of any argument type live in one list
  tools?: readonly Tool<any>[];
  context?: readonly ContextPolicy[];
}

/**
 * The stable prefix an agent with these options sends: the system prompt with the policies'
 * sections in its session part, and the caller's tools plus every policy's, sorted and frozen —
 * what `startSession` should record before `createAgent` starts sending. Deferred tools are left
 * out (a routing policy such as tool search serves them). Pure.
 */
export function resolveAgentPrefix(input: AgentPrefixInput): StablePrefix {
  const policy = composeContextPolicies(...(input.context ?? []));
  const tools = [...(input.tools ?? []), ...(policy.tools ?? [])].filter((tool) => tool.deferred !== true);
  const base: SystemPrompt = typeof input.system === "string" ? { staticText: input.system } : input.system;
  const section = policySystemSection(input);
  const system: SystemPrompt = section === undefined ? base : { staticText: base.staticText, sessionText: base.sessionText ? `${base.sessionText}\n\n${section}` : section };
  return createStablePrefix(system, tools);
}

/** The policies' stable sections as they go into the session part of the system prompt (undefined: none). */
export function policySystemSection(input: Omit<AgentPrefixInput, "system">): string | undefined {
  const policy = composeContextPolicies(...(input.context ?? []));
  const tools = [...(input.tools ?? []), ...(policy.tools ?? [])].filter((tool) => tool.deferred !== true);
  return policy.system?.({ toolNames: tools.map((tool) => tool.name).sort() });
}

/**
 * Where the policies' sections begin in the session part `resolveAgentPrefix` makes of this base
 * prompt and section: after the base's session text and a blank line (0 when it has none; its
 * length when there is no section). Recorded with the session's prefix. Pure.
 */
export function policySectionsStart(system: string | SystemPrompt, section: string | undefined): number {
  const baseText = typeof system === "string" ? "" : (system.sessionText ?? "");
  if (section === undefined) return baseText.length;
  return baseText ? baseText.length + 2 : 0;
}
