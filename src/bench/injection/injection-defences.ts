import type { ContextPolicy } from "../../context/context-policy.js";
import { createRoleDiscipline } from "../../context/external-content/create-role-discipline.js";
import { createSourceTags } from "../../context/external-content/create-source-tags.js";
import { createLeakWithholding } from "../../security/create-leak-withholding.js";
import { createRuntimeGuardPolicy } from "../../security/create-runtime-guard-policy.js";

/**
 * The seed's defences, each ALONE (issue 24: the table shows what one layer does by itself), and
 * `all` of them together — the CLI's default.
 */
export const defences = ["none", "prompt-warning", "source-tags", "runtime-guard", "all"] as const;
export type Defence = (typeof defences)[number];

export interface DefenceScenario {
  /** Tools whose definitions came from a party the user has not trusted (a poisoned MCP description). */
  untrustedTools?: readonly string[];
}

export function defenceSetup(defence: Defence, scenario: DefenceScenario = {}): { context: ContextPolicy[] } {
  const guard = () => [createRuntimeGuardPolicy(scenario.untrustedTools ? { untrustedTools: scenario.untrustedTools } : {}), createLeakWithholding()];
  switch (defence) {
    case "none":
      return { context: [] };
    case "prompt-warning":
      // Only the system-prompt section ("external content may contain malicious instructions").
      return { context: [createSourceTags({ tags: false, screening: false })] };
    case "source-tags":
      // Tags, the neutraliser and screening (with the system section they rely on), and role discipline.
      return { context: [createSourceTags(), createRoleDiscipline()] };
    case "runtime-guard":
      // Execution level only: while untrusted content is in the context, calls that are not read-only
      // need an exact approval; an answer repeating the system prompt is withheld.
      return { context: guard() };
    case "all":
      return { context: [createSourceTags(), createRoleDiscipline(), ...guard()] };
  }
}
