import type { ContextPolicy } from "../../../context/context-policy.js";

/** The baseline: every message is kept as recorded, so the context only grows. */
export function createNonePolicy(): ContextPolicy {
  return { name: "none", inherit: "never" };
}
