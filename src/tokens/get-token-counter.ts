import { ConfigError } from "../types/errors.js";
import { createEstimatedTokenCounter } from "./estimated-token-counter.js";
import { createQwen3TokenCounter } from "./qwen3-token-counter.js";
import { createTiktokenCounter } from "./tiktoken-token-counter.js";
import type { TokenCounter, TokenCounterName } from "./token-counter.js";

const counters = new Map<TokenCounterName, TokenCounter>();

/** A shared counter by name. Exact counters load their vocabulary on first `count()`, not here. */
export function getTokenCounter(name: TokenCounterName): TokenCounter {
  let counter = counters.get(name);
  if (counter === undefined) {
    counter = createCounter(name);
    counters.set(name, counter);
  }
  return counter;
}

function createCounter(name: TokenCounterName): TokenCounter {
  switch (name) {
    case "qwen3":
      return createQwen3TokenCounter();
    case "o200k":
      return createTiktokenCounter("o200k_base");
    case "cl100k":
      return createTiktokenCounter("cl100k_base");
    case "estimate":
      return createEstimatedTokenCounter();
  }
  // Reached only from untyped callers (a config file, JavaScript).
  throw new ConfigError(
    "tokenizer_unknown",
    `Unknown token counter '${String(name)}'. Use one of: qwen3, o200k, cl100k, estimate.`,
  );
}
