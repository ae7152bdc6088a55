import type { ContextPolicy } from "../context/context-policy.js";
import { createRoleDiscipline } from "../context/external-content/create-role-discipline.js";
import { createSourceTags } from "../context/external-content/create-source-tags.js";
import { createRuntimeGuardPolicy } from "../security/create-runtime-guard-policy.js";
import type { AgentConfig } from "./agent-config.js";

/**
 * The CLI's defences against injected instructions: external results (and, unless the user trusts
 * the workspace, workspace results) tagged as data with the system-prompt notice, and the runtime
 * guard on writes, commands and sends. Tools named in `externalTools` count as external for both.
 */
export function createUntrustedContentFromConfig(config: AgentConfig): ContextPolicy[] {
  const { trustWorkspace, externalTools, notice } = config.untrustedContent;
  return [createSourceTags({ tagWorkspace: !trustWorkspace, externalTools, systemSection: notice }), createRoleDiscipline(), createRuntimeGuardPolicy({ externalTools })];
}
