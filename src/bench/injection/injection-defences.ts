import type { ContextPolicy } from "../../context/context-policy.js";
import { createRoleDiscipline } from "../../context/external-content/create-role-discipline.js";
import { createSourceTags } from "../../context/external-content/create-source-tags.js";
import { createLeakWithholding } from "../../security/create-leak-withholding.js";
import { createRuntimeGuardPolicy } from "../../security/create-runtime-guard-policy.js";

/** The seed's four defences, each including the ones before it. */
export const defences = ["none", "prompt-warning", "source-tags", "runtime-guard"] as const;
export type Defence = (typeof defences)[number];

export function defenceSetup(defence: Defence): { context: ContextPolicy[] } {
  switch (defence) {
    case "none":
      return { context: [] };
    case "prompt-warning":
      // Only the system-prompt section ("external content may contain malicious instructions").
      return { context: [createSourceTags({ tags: false, screening: false })] };
    case "source-tags":
      return { context: [createSourceTags(), createRoleDiscipline()] };
    case "runtime-guard":
      // Execution level: tainted calls need an exact approval, and an answer repeating the system prompt is withheld.
      return { context: [createSourceTags(), createRoleDiscipline(), createRuntimeGuardPolicy(), createLeakWithholding()] };
  }
}
