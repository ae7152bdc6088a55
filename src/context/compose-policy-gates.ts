import type { ContextPolicy } from "./context-policy.js";
import type { CallGate, PolicyWarning, ToolCallVerdict } from "./policy-gates.js";

/** The members' call gates as one: warnings from all, the first refusal ends it, the longest wait wins. */
export function composeBeforeCall(members: readonly ContextPolicy[]): Pick<ContextPolicy, "beforeCall"> {
  const gates = members.flatMap((member) => (member.beforeCall ? [member.beforeCall] : []));
  if (gates.length === 0) return {};
  return {
    async beforeCall(state) {
      const warnings: PolicyWarning[] = [];
      let wait: Extract<CallGate, { action: "wait" }> | undefined;
      for (const gate of gates) {
        const verdict = await gate(state);
        warnings.push(...(verdict.warnings ?? []));
        if (verdict.action === "refuse") return { ...verdict, warnings };
        if (verdict.action === "wait" && (wait === undefined || verdict.delayMs > wait.delayMs)) wait = verdict;
      }
      return wait ? { ...wait, warnings } : { action: "allow", warnings };
    },
  };
}

/**
 * The members' tool-call hooks as one: the first refusal wins; several asks become one question
 * with every reason (exact when any asked for an exact approval; the first exact one words the refusal);
 * any ask outweighs an approval given in advance (`allow` with `approved`).
 */
export function composeOnToolCall(members: readonly ContextPolicy[]): Pick<ContextPolicy, "onToolCall"> {
  const hooks = members.flatMap((member) => (member.onToolCall ? [member.onToolCall] : []));
  if (hooks.length === 0) return {};
  return {
    async onToolCall(check) {
      const asks: Extract<ToolCallVerdict, { action: "ask" }>[] = [];
      let approved = false;
      for (const hook of hooks) {
        const verdict = await hook(check);
        if (verdict.action === "refuse") return verdict;
        if (verdict.action === "ask") asks.push(verdict);
        else if (verdict.approved === true) approved = true;
      }
      if (asks.length === 0) return approved ? { action: "allow", approved: true } : { action: "allow" };
      if (asks.length === 1) return asks[0]!;
      const exact = asks.find((ask) => ask.exact);
      const evidence = asks.flatMap((ask) => (ask.evidence === undefined ? [] : [ask.evidence]));
      return {
        action: "ask",
        reasons: asks.flatMap((ask) => ask.reasons),
        ...(evidence.length > 0 ? { evidence } : {}),
        exact: exact !== undefined,
        refusal: (exact ?? asks[0]!).refusal,
      };
    },
  };
}

/**
 * The policies a child agent runs with, by each one's declared `inherit` rule: `share` gives the
 * child the same instance, `copy` what `forChild` returns, `never` (or nothing declared) none.
 */
export function inheritPolicies(members: readonly ContextPolicy[], child: Parameters<NonNullable<ContextPolicy["forChild"]>>[0]): ContextPolicy[] {
  return members.flatMap((member) => {
    if (member.inherit === "share") return [member];
    if (member.inherit === "copy") {
      const copy = member.forChild?.(child);
      return copy ? [copy] : [];
    }
    return [];
  });
}
