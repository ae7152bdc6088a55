import type { CacheCallObservation } from "../context/cache-miss/explain-cache-miss.js";
import type { ComposedContextPolicy } from "../context/compose-context-policies.js";
import type { PrefixGuard } from "../context/prefix-guard/index.js";
import type { StablePrefix } from "../context/stable-prefix.js";
import type { Tool } from "../tools/tool.js";
import type { ArgumentsValidator } from "../tools/validate-tool-arguments.js";
import type { BlobStore, Message, MessageMeta, MessageOrigin, ModelRequest, Usage, UserMessage } from "../types/index.js";
import type { AgentOptions } from "./agent-options.js";

export { countToolCalls, totalToolCallsKey } from "../context/count-tool-calls.js";

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
  /** Set by `run(input, { compact })`: the next call asks the provider to compact on its side. */
  serverCompaction?: { instructions?: string };
  lastRequestAt: Date | undefined;
  /** The previous call as the cache saw it, to explain the next call's miss (see observeCacheMiss). */
  lastCacheObservation?: CacheCallObservation;
}

export function createMeta(state: LoopState, origin: MessageOrigin): MessageMeta {
  return { id: state.createId(), origin, createdAt: state.clock().toISOString() };
}
