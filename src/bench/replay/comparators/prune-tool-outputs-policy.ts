import type { ContextPolicy } from "../../../context/context-policy.js";
import type { Message, ToolMessage } from "../../../types/index.js";

export interface PruneToolOutputsOptions {
  contextWindow: number;
  countMessage: (message: Message) => number;
  /** Newest tool output protected from clearing, as a fraction of the window. Default 0.2. */
  protectShare?: number;
  /** Clear only when at least this much can be freed, as a fraction of the window. Default 0.1. */
  minimumShare?: number;
}

/** opencode's placeholder text for a cleared output. */
export const clearedToolOutput = "[Old tool result content cleared]";

/**
 * opencode-like pruning: walking back from the newest message, the first `protect` tokens of tool
 * output are kept; older outputs are cleared, but only when that frees at least `minimum` tokens,
 * and never past an output cleared before (so each prune is one batched cache break). opencode
 * uses 40k and 20k tokens for 200k-token windows; here they scale with the window (20% and 10%),
 * so the policy behaves the same on a 32k window as on 200k.
 */
export function createPruneToolOutputsPolicy(options: PruneToolOutputsOptions): ContextPolicy {
  const protect = options.contextWindow * (options.protectShare ?? 0.2);
  const minimum = options.contextWindow * (options.minimumShare ?? 0.1);
  return {
    name: "prune",
    prepareContext(state) {
      const indices = prunableOutputs(state.messages, options.countMessage, protect, minimum);
      if (indices.length === 0) return undefined;
      const start = indices[0]!;
      const end = indices[indices.length - 1]! + 1;
      const selected = new Set(indices);
      const messages = state.messages.slice(start, end).map((message, offset) => (selected.has(start + offset) ? clear(message as ToolMessage) : message));
      return [{ type: "replace", start, end, messages, reason: `pruned ${indices.length} old tool outputs` }];
    },
  };
}

/** The tool results to clear (ascending), or none when clearing would free less than `minimum`. */
export function prunableOutputs(messages: readonly Message[], countMessage: (message: Message) => number, protect: number, minimum: number): number[] {
  let total = 0;
  let freed = 0;
  const indices: number[] = [];
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index]!;
    if (message.role !== "tool") continue;
    if (message.content === clearedToolOutput) break;
    const tokens = countMessage(message);
    total += tokens;
    if (total > protect) {
      freed += tokens;
      indices.unshift(index);
    }
  }
  return freed >= minimum ? indices : [];
}

function clear(message: ToolMessage): ToolMessage {
  return { ...message, content: clearedToolOutput, meta: { ...message.meta, id: `${message.meta.id}:cleared` } };
}
