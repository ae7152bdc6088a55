import type { ContextPolicy, ContextState } from "../context-policy.js";
import { derivedId } from "../compression/markers.js";
import { ConfigError, type AssistantMessage, type ModelRequest, type Usage } from "../../types/index.js";
import type { ResponsesCompaction } from "../../providers/openai-responses/compact-responses.js";

export interface ResponsesCompactPolicyOptions {
  /** The provider from `createOpenAIResponses` (its `compact` is the `/responses/compact` call). */
  provider: { compact(request: ModelRequest, signal?: AbortSignal): Promise<ResponsesCompaction> };
  /**
   * Also compact when the previous call's prompt reached this many input tokens (a client-side
   * threshold; `compactThreshold` on the provider is the server-side one). Default: on demand only.
   */
  compactAtInputTokens?: number;
  /** Compact when a call failed with a context overflow, before the loop retries it (default true). */
  onOverflow?: boolean;
}

/** The policy, plus the switch that asks for a compaction before the next model call. */
export interface ResponsesCompactPolicy extends ContextPolicy {
  /** Compact before the next model call (a `/compact` command, a harness deciding the context is stale). */
  requestCompaction(): void;
}

/**
 * OpenAI's on-demand compaction (`POST /responses/compact`) as a context policy. Before a call —
 * when asked to (`requestCompaction`), past `compactAtInputTokens`, or after an overflow — it sends
 * the trajectory to the compact endpoint and replaces the whole trajectory with the window the server
 * returned: one harness message whose parts are the returned items, each kept as the exact JSON text
 * and sent back unchanged (the `compaction` item is encrypted; only the server can read it). That is
 * a declared `replace` edit: recorded in the session, replayed byte-identically, and named by the
 * prefix guard as declared. For the Responses provider only (other providers drop OpenAI items).
 */
export function createResponsesCompactPolicy(options: ResponsesCompactPolicyOptions): ResponsesCompactPolicy {
  const threshold = options.compactAtInputTokens;
  if (threshold !== undefined && !(Number.isInteger(threshold) && threshold > 0)) {
    throw new ConfigError("option_invalid", `compactAtInputTokens must be a positive number of tokens, got ${String(threshold)}.`);
  }
  let requested = false;
  let batch = 0;
  // The usage that last triggered a threshold compaction: the same report never triggers twice.
  let usedUsage: Usage | undefined;

  const due = (state: ContextState): string | undefined => {
    if (requested) return "requested";
    if (state.overflow && options.onOverflow !== false) return "the previous attempt overflowed the context window";
    const usage = state.lastUsage;
    if (threshold !== undefined && usage !== undefined && usage !== usedUsage && usage.inputTokens >= threshold) {
      usedUsage = usage;
      return `the previous call's ${usage.inputTokens} input tokens reached ${threshold}`;
    }
    return undefined;
  };

  return {
    name: "responses-compact",
    // A child keeps its own trajectory and decides its own compactions; the request switch is the parent's.
    inherit: "never",
    requestCompaction() {
      requested = true;
    },
    async prepareContext(state) {
      const why = due(state);
      if (why === undefined || state.messages.length === 0) return undefined;
      requested = false;
      const request: ModelRequest = { system: state.prefix.system, tools: [...state.prefix.tools], messages: [...state.messages], cacheBreakpoints: [], settings: {} };
      const compaction = await options.provider.compact(request, state.signal);
      batch += 1;
      const last = state.messages[state.messages.length - 1]!;
      const replacement: AssistantMessage = {
        role: "assistant",
        content: compaction.items.map((block) => ({ type: "provider_block", provider: "openai", block })),
        meta: {
          id: derivedId(last.meta.id, `rc${batch}`),
          origin: "harness",
          createdAt: state.now.toISOString(),
          derived: { kind: "summary", replaces: state.messages.map((message) => message.meta.id), batch },
        },
      };
      const { inputTokens, outputTokens } = compaction.usage;
      return [
        {
          type: "replace",
          start: 0,
          end: state.messages.length,
          messages: [replacement],
          reason: `server-side compaction (/responses/compact, ${why}): ${state.messages.length} messages became ${compaction.items.length} items; the pass billed ${inputTokens} input and ${outputTokens} output tokens`,
        },
      ];
    },
  };
}
