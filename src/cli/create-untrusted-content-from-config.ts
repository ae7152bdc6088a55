import type { ContextPolicy } from "../context/context-policy.js";
import { createRoleDiscipline } from "../context/external-content/create-role-discipline.js";
import { createSourceTags } from "../context/external-content/create-source-tags.js";
import { createRuntimeGuard, type RuntimeGuard } from "../security/create-runtime-guard.js";
import type { ResolvedConfig } from "./resolve-config.js";

/**
 * The CLI's defences against injected instructions: external results (and, unless the user trusts
 * the workspace, workspace results) tagged as data with the system-prompt notice, and the runtime
 * guard on writes, commands and sends. Tools named in `externalTools` count as external for both.
 */
export function createUntrustedContentFromConfig(config: ResolvedConfig): { policies: ContextPolicy[]; runtimeGuard: RuntimeGuard } {
  const { trustWorkspace, externalTools, notice } = config.untrustedContent;
  return {
    policies: [createSourceTags({ tagWorkspace: !trustWorkspace, externalTools, systemSection: notice }), createRoleDiscipline()],
    runtimeGuard: createRuntimeGuard({ externalTools }),
  };
}
