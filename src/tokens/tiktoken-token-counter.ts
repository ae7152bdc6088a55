import type { Tiktoken, TiktokenBPE } from "js-tiktoken/lite";
import { loadPackage } from "./load-package.js";
import type { TokenCounter } from "./token-counter.js";

export type TiktokenEncodingName = "o200k_base" | "cl100k_base";

const encodings = new Map<TiktokenEncodingName, Tiktoken>();

function getEncoding(encodingName: TiktokenEncodingName): Tiktoken {
  let encoding = encodings.get(encodingName);
  if (encoding === undefined) {
    const { Tiktoken: TiktokenClass } = loadPackage<{ Tiktoken: typeof Tiktoken }>("js-tiktoken/lite");
    // The CommonJS build exports the ranks object itself (`module.exports = {...}`).
    const ranks = loadPackage<TiktokenBPE>(`js-tiktoken/ranks/${encodingName}`);
    encoding = new TiktokenClass(ranks);
    encodings.set(encodingName, encoding);
  }
  return encoding;
}

/**
 * Exact counter for OpenAI's encodings: `o200k_base` (GPT-4o, GPT-4.1, GPT-5, o-series) and
 * `cl100k_base` (GPT-4, GPT-3.5). Text that happens to contain `<|endoftext|>` is counted as plain
 * text, as the OpenAI API does with message content, instead of throwing as js-tiktoken does by default.
 * The encoding is loaded on first use (o200k ≈ 1.5 s) and shared module-wide.
 */
export function createTiktokenCounter(encodingName: TiktokenEncodingName): TokenCounter {
  const encode = (text: string): number[] => getEncoding(encodingName).encode(text, [], []);
  return {
    name: encodingName === "o200k_base" ? "o200k" : "cl100k",
    exact: true,
    count: (text) => (text.length === 0 ? 0 : encode(text).length),
    encode,
  };
}
