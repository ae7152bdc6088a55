import type { LlamaContextSequence } from "node-llama-cpp";
import { commonPrefixTokens } from "../../tokens/common-prefix-tokens.js";

/**
 * Aligns the sequence's KV cache with the next prompt: keeps the longest common token prefix,
 * erases only the divergent tail, and returns how many tokens are reused (the rest must be
 * evaluated). At least one token is always evaluated, since sampling needs the last prompt token's
 * logits: a prompt identical to the cached tokens reuses all but its last token.
 */
export async function reuseSequencePrefix(sequence: LlamaContextSequence, promptTokens: readonly number[]): Promise<number> {
  const cached = sequence.contextTokens;
  const reused = Math.min(commonPrefixTokens(cached, promptTokens), promptTokens.length - 1);
  if (reused < sequence.nextTokenIndex) await sequence.eraseContextTokenRanges([{ start: reused, end: sequence.nextTokenIndex }]);
  return reused;
}
