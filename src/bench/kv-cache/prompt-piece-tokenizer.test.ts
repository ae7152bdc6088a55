import { describe, expect, it } from "vitest";
import { commonPrefixTokens, getTokenCounter, renderModelRequest } from "../../tokens/index.js";
import { buildModeRequests, contextModes } from "./context-modes.js";
import { createPromptPieceTokenizer, sharedPromptPrefix } from "./prompt-piece-tokenizer.js";
import { sampleDialogue } from "./test-support/sample-dialogue.js";

const counter = getTokenCounter("qwen3");

describe("prompt piece tokenizer", () => {
  for (const mode of contextModes) {
    it(`${mode}: gives exactly the tokens and the common prefix of whole-prompt tokenization`, () => {
      const tokenizer = createPromptPieceTokenizer(counter);
      let previous: { whole: number[]; pieces: ReturnType<typeof tokenizer.tokenize> } | undefined;
      for (const request of buildModeRequests(sampleDialogue(), mode)) {
        const rendered = renderModelRequest(request);
        const whole = counter.encode!(rendered);
        const pieces = tokenizer.tokenize(rendered);
        expect(pieces.segments.flatMap((segment) => segment.pieces.flatMap((piece) => [...piece.tokens]))).toEqual(whole);
        expect(pieces.total).toBe(whole.length);
        if (previous) {
          const shared = sharedPromptPrefix(previous.pieces, pieces);
          expect(shared.tokens).toBe(commonPrefixTokens(previous.whole, whole));
          expect(shared.wholeMessageTokens).toBeLessThanOrEqual(shared.tokens);
        }
        previous = { whole, pieces };
      }
    });
  }

  it("keeps lines that end a piece early exact: the common prefix runs on into the next piece", () => {
    const tokenizer = createPromptPieceTokenizer(counter);
    const before = "<|im_start|>user\nabc\n  def<|im_end|>\n";
    const after = "<|im_start|>user\nabc\ndef<|im_end|>\n";
    const shared = sharedPromptPrefix(tokenizer.tokenize(before), tokenizer.tokenize(after));
    expect(shared.tokens).toBe(commonPrefixTokens(counter.encode!(before), counter.encode!(after)));
    expect(shared.wholeMessageTokens).toBe(0);
  });

  it("counts whole shared messages separately from a partly shared one", () => {
    const tokenizer = createPromptPieceTokenizer(counter);
    const system = "<|im_start|>system\nYou are helpful.<|im_end|>\n";
    const first = tokenizer.tokenize(`${system}<|im_start|>user\nprofile: 41 calls left<|im_end|>\n`);
    const second = tokenizer.tokenize(`${system}<|im_start|>user\nprofile: 40 calls left<|im_end|>\n`);
    const shared = sharedPromptPrefix(first, second);
    expect(shared.wholeMessageTokens).toBe(counter.count(system));
    expect(shared.tokens).toBeGreaterThan(shared.wholeMessageTokens);
  });

  it("refuses a counter that cannot encode", () => {
    expect(() => createPromptPieceTokenizer(getTokenCounter("estimate"))).toThrow(/exact tokenizer/);
  });
});
