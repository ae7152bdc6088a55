import type { Message, StoredBlob } from "../types/index.js";
import { carryCheckpoints } from "./carry-checkpoints.js";
import { toProcessedToolResult, type ContextEdit, type ContextPolicy, type ContextState } from "./context-policy.js";
import { composeBeforeCall, composeOnToolCall } from "./compose-policy-gates.js";

/** A composition of policies; `members` are its parts in the order they run. */
export interface ComposedContextPolicy extends ContextPolicy {
  readonly members: readonly ContextPolicy[];
  /** The tail's parts, each with the policy that wrote it (`tail` joins them): traces say which policies wrote the tail. */
  tailParts(state: Parameters<NonNullable<ContextPolicy["tail"]>>[0]): Array<{ policy: string; text: string }>;
}

/**
 * Combines policies into one — what `createAgent({ context: [...] })` does with its list. It owns:
 * - **Order**: members are sorted by `order` (lower first; equal values keep list order), so
 *   `[createStatusBar(), createCompression(...)]` and the reverse behave the same: compression
 *   (order -100) budgets a result before the status bar (order 100) stamps it, and compacts before
 *   the status bar describes the context. Nested compositions are flattened.
 * - **Hooks**: tools and system sections are joined; user messages and tool results pass through
 *   every processor in order (blobs accumulate); before a call each preparer sees the context as the
 *   earlier preparers' edits left it; tails of several policies share the one tail message.
 * - **Gates**: before a call every gate is asked in order — the first refusal ends the run, waits
 *   add up to the longest one; on a tool call the first refusal wins, asks are merged into one
 *   question (exact if any is), so a person answers once; final-text filters run in a chain.
 * - **Checkpoints across compaction**: every replacement that removes tool calls (or an earlier
 *   checkpoint) gets, right after it, each member's `checkpoint` message — so counts, TODO lists and
 *   other derived state survive, whichever policy compacted.
 */
export function composeContextPolicies(...policies: ContextPolicy[]): ComposedContextPolicy {
  const members = sortByOrder(policies.flatMap((policy) => (isComposed(policy) ? policy.members : [policy])));
  const checkpointers = members.filter((member) => member.checkpoint !== undefined);
  const routers = members.flatMap((member) => (member.routeToolCall ? [member.routeToolCall] : []));
  const composed: ComposedContextPolicy = {
    name: members.map((member) => member.name).join("+"),
    members,
    tools: members.flatMap((member) => member.tools ?? []),
    system(input) {
      const sections = members.map((member) => member.system?.(input)).filter((section): section is string => section !== undefined && section !== "");
      return sections.length === 0 ? undefined : sections.join("\n\n");
    },
    processUserMessage(message, info) {
      let current = message;
      for (const member of members) if (member.processUserMessage) current = member.processUserMessage(current, info);
      return current;
    },
    async processToolResult(result, info) {
      let current = result;
      const blobs: StoredBlob[] = [];
      for (const member of members) {
        if (!member.processToolResult) continue;
        const processed = toProcessedToolResult(await member.processToolResult(current, info));
        current = processed.message;
        blobs.push(...processed.blobs);
      }
      return { message: current, blobs };
    },
    // The first member that routes a call decides; the others see the call only if none did.
    ...(routers.length === 0 ? {} : { routeToolCall: (call, info) => routers.reduce<ReturnType<NonNullable<ContextPolicy["routeToolCall"]>>>((route, router) => route ?? router(call, info), undefined) }),
    async prepareContext(state) {
      const edits: ContextEdit[] = [];
      let messages = state.messages;
      for (const member of members) {
        if (!member.prepareContext) continue;
        const proposed = (await member.prepareContext({ ...state, messages } satisfies ContextState)) ?? [];
        const carried = carryCheckpoints(messages, proposed, checkpointers, state.now);
        edits.push(...carried);
        messages = applyEdits(messages, carried);
      }
      return edits;
    },
    tailParts(state) {
      return members.flatMap((member) => {
        const text = member.tail?.(state);
        return text === undefined ? [] : [{ policy: member.name, text }];
      });
    },
    tail(state) {
      const parts = composed.tailParts(state);
      return parts.length === 0 ? undefined : parts.map((part) => part.text).join("\n\n");
    },
    deferredTools: members.flatMap((member) => member.deferredTools ?? []),
    startRun() {
      const budget = members.flatMap((member) => member.startRun?.()?.budget ?? []);
      return budget.length === 0 ? undefined : { budget };
    },
    ...composeBeforeCall(members),
    afterCall(usage, info) {
      const warnings = members.flatMap((member) => member.afterCall?.(usage, info) ?? []);
      return warnings.length === 0 ? undefined : warnings;
    },
    ...composeOnToolCall(members),
    continueTurn(message) {
      for (const member of members) {
        const reason = member.continueTurn?.(message);
        if (reason !== undefined) return reason;
      }
      return undefined;
    },
    onFinalText(text, info) {
      let current: { text: string; warnings: NonNullable<ReturnType<NonNullable<ContextPolicy["onFinalText"]>>>["warnings"] } | undefined;
      for (const member of members) {
        const verdict = member.onFinalText?.(current?.text ?? text, info);
        if (verdict) current = { text: verdict.text, warnings: [...(current?.warnings ?? []), ...(verdict.warnings ?? [])] };
      }
      return current;
    },
  };
  return composed;
}

/** The context after edits, without side effects (the loop applies and records the real ones). */
export function applyEdits(messages: readonly Message[], edits: readonly ContextEdit[]): readonly Message[] {
  let current = [...messages];
  for (const edit of edits) {
    current = edit.type === "append" ? [...current, ...edit.messages] : [...current.slice(0, edit.start), ...edit.messages, ...current.slice(edit.end)];
  }
  return current;
}

function isComposed(policy: ContextPolicy): policy is ComposedContextPolicy {
  return Array.isArray((policy as Partial<ComposedContextPolicy>).members);
}

function sortByOrder(policies: readonly ContextPolicy[]): ContextPolicy[] {
  return policies
    .map((policy, position) => ({ policy, position }))
    .sort((left, right) => (left.policy.order ?? 0) - (right.policy.order ?? 0) || left.position - right.position)
    .map(({ policy }) => policy);
}
