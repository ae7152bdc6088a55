import type { TokenCounter } from "../tokens/token-counter.js";

export interface BoundedAnswer {
  text: string;
  /** The answer's tokens before cutting (when it was cut). */
  originalTokens?: number;
}

/**
 * Keeps a sub-agent's answer within `maxTokens`: the start of a longer answer is kept, cut at a line
 * or word break when one is near, and a note says it was cut and where the whole answer is — the
 * parent must never mistake a cut answer for a complete one.
 */
export function boundAnswer(text: string, maxTokens: number, counter: TokenCounter, fullAnswerAt: string): BoundedAnswer {
  const originalTokens = counter.count(text);
  if (originalTokens <= maxTokens) return { text };
  // Code points, so a cut never splits a surrogate pair; binary search for the longest start that fits.
  const characters = [...text];
  let low = 0;
  let high = characters.length;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (counter.count(characters.slice(0, middle).join("")) <= maxTokens) low = middle;
    else high = middle - 1;
  }
  let kept = characters.slice(0, low).join("");
  const lastBreak = Math.max(kept.lastIndexOf("\n"), kept.lastIndexOf(" "));
  if (lastBreak > kept.length * 0.8) kept = kept.slice(0, lastBreak);
  const note = `\n\n[The sub-agent's answer was cut at ${maxTokens.toLocaleString("en-US")} of its ${originalTokens.toLocaleString("en-US")} tokens; ${fullAnswerAt}.]`;
  return { text: `${kept.trimEnd()}${note}`, originalTokens };
}
