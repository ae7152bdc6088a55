import type { Message } from "../types/index.js";
import type { ContextEdit, ContextPolicy, ContextState } from "./context-policy.js";

/**
 * Combines policies into one (e.g. compression + status bar): tool results pass through every
 * processor in order; before a call each preparer sees the context as the earlier preparers' edits
 * left it, and all edits are returned in order for the loop to apply and record.
 */
export function composeContextPolicies(...policies: ContextPolicy[]): ContextPolicy {
  const processors = policies.flatMap((policy) => (policy.processToolResult ? [policy.processToolResult.bind(policy)] : []));
  const preparers = policies.flatMap((policy) => (policy.prepareContext ? [policy.prepareContext.bind(policy)] : []));
  return {
    name: policies.map((policy) => policy.name).join("+"),
    ...(processors.length > 0
      ? {
          async processToolResult(result, info) {
            let current = result;
            for (const processor of processors) current = await processor(current, info);
            return current;
          },
        }
      : {}),
    ...(preparers.length > 0
      ? {
          async prepareContext(state) {
            const edits: ContextEdit[] = [];
            let messages = state.messages;
            for (const prepare of preparers) {
              const next = (await prepare({ ...state, messages } satisfies ContextState)) ?? [];
              edits.push(...next);
              messages = applyEdits(messages, next);
            }
            return edits;
          },
        }
      : {}),
  };
}

/** The context after edits, without side effects (the loop applies and records the real ones). */
export function applyEdits(messages: readonly Message[], edits: readonly ContextEdit[]): readonly Message[] {
  let current = [...messages];
  for (const edit of edits) {
    current = edit.type === "append" ? [...current, ...edit.messages] : [...current.slice(0, edit.start), ...edit.messages, ...current.slice(edit.end)];
  }
  return current;
}
