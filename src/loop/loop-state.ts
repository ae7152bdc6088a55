import type { CacheCallObservation } from "../context/cache-miss/explain-cache-miss.js";
import type { ComposedContextPolicy } from "../context/compose-context-policies.js";
import type { PrefixGuard } from "../context/prefix-guard/index.js";
import type { StablePrefix } from "../context/stable-prefix.js";
import { findStatusCheckpoint } from "../context/status-bar/status-checkpoint.js";
import type { Tool } from "../tools/tool.js";
import type { ArgumentsValidator } from "../tools/validate-tool-arguments.js";
import type { BlobStore, Message, MessageMeta, MessageOrigin, ModelRequest, Usage, UserMessage } from "../types/index.js";
import type { AgentOptions } from "./agent-options.js";

/** Key of the all-tools counter in `LoopState.toolCallCounts` (not a valid tool name). */
export const totalToolCallsKey = "*";

/** What an agent keeps between runs. Owned by `createAgent`; the loop functions read and update it. */
export interface LoopState {
  options: AgentOptions;
  /** Every context policy of the agent, composed once. */
  policy: ComposedContextPolicy;
  /** Where blobs that policies hand back (previews', stubs' originals) are stored. */
  blobStore: BlobStore;
  /** Messages a context edit replaced (and the loaded session's log), by id, for `recall` by message id. */
  replaced: Map<string, Message>;
  prefix: StablePrefix;
  /** The context as sent: append-only, except for declared context edits. */
  trajectory: Message[];
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tools of any argument type live in one map
  toolsByName: Map<string, Tool<any>>;
  validators: Map<string, ArgumentsValidator>;
  clock: () => Date;
  createId: () => string;
  buildRequest: (tail?: UserMessage) => ModelRequest;
  guard: PrefixGuard | undefined;
  /** Set by `agent.declareCacheBreak()` or a context edit: the next request may break the prefix for this reason. */
  declaredBreak: { reason: string } | undefined;
  /** Tool calls so far per tool name (and in total), for the numbers processors stamp on results. */
  toolCallCounts: Map<string, number>;
  lastUsage: Usage | undefined;
  lastRequestAt: Date | undefined;
  /** The previous call as the cache saw it, to explain the next call's miss (see observeCacheMiss). */
  lastCacheObservation?: CacheCallObservation;
}

export function createMeta(state: LoopState, origin: MessageOrigin): MessageMeta {
  return { id: state.createId(), origin, createdAt: state.clock().toISOString() };
}

/**
 * Counts the tool results already in a trajectory (a resumed session continues the numbering). A
 * compaction removes results but leaves a status checkpoint with the counts before it; start from
 * the newest one, or a restarted agent would number its next result lower than the one it replaced.
 */
export function countToolCalls(messages: readonly Message[]): Map<string, number> {
  const counts = new Map<string, number>();
  const checkpoint = findStatusCheckpoint(messages);
  for (const [name, count] of Object.entries(checkpoint?.data.toolCalls ?? {})) {
    if (name === totalToolCallsKey) continue;
    counts.set(name, count);
    counts.set(totalToolCallsKey, (counts.get(totalToolCallsKey) ?? 0) + count);
  }
  for (const message of messages.slice(checkpoint ? checkpoint.index + 1 : 0)) {
    if (message.role !== "tool") continue;
    counts.set(message.toolName, (counts.get(message.toolName) ?? 0) + 1);
    counts.set(totalToolCallsKey, (counts.get(totalToolCallsKey) ?? 0) + 1);
  }
  return counts;
}
