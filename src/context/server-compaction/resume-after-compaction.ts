import type { ContextPolicy } from "../context-policy.js";

/**
 * Goes on with a turn the server paused after compacting. With Anthropic's
 * `compact_20260112` and `pause_after_compaction: true`, a response can end right after the
 * `compaction` block with `stop_reason: "compaction"`: the summary is written but the answer is not.
 * That is not a final answer, so instead of ending the run the loop sends the next request, which
 * carries the assistant message with the compaction block unchanged (the API drops what came before
 * it and answers from the summary). The server's edit is a declared break (the provider reports it
 * in `usage.serverContext`). Pure: decided from the message alone.
 */
export function createResumeAfterCompaction(): ContextPolicy {
  return {
    name: "resume-after-compaction",
    // Stateless: a child on the same provider resumes its own paused turns the same way.
    inherit: "share",
    continueTurn(message) {
      if (message.rawStopReason !== "compaction") return undefined;
      const hasBlock = message.content.some((part) => part.type === "provider_block" && part.provider === "anthropic" && part.block.startsWith('{"type":"compaction"'));
      return hasBlock ? "the server paused after writing its compaction summary" : undefined;
    },
  };
}
