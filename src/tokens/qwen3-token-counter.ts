import type { TokenizerLoader } from "@lenml/tokenizers";
import { loadPackage } from "./load-package.js";
import { readQwen3TokenizerConfig, readQwen3TokenizerJson } from "./qwen3-tokenizer-files.js";
import type { TokenCounter } from "./token-counter.js";

type Qwen3Tokenizer = ReturnType<typeof TokenizerLoader.fromPreTrained>;

let tokenizer: Qwen3Tokenizer | undefined;

/** The Qwen3 tokenizer (shared by all counters; built on first use, ~1 s, from the files in data/qwen3). */
function getQwen3Tokenizer(): Qwen3Tokenizer {
  if (tokenizer === undefined) {
    const { TokenizerLoader: loader } = loadPackage<{ TokenizerLoader: typeof TokenizerLoader }>("@lenml/tokenizers");
    tokenizer = loader.fromPreTrained({ tokenizerJSON: readQwen3TokenizerJson() as never, tokenizerConfig: readQwen3TokenizerConfig() as never });
  }
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
