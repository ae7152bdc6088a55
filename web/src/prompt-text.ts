import { html } from "htm/preact";
import { useLayoutEffect, useRef } from "preact/hooks";
import type { CallDetail } from "./api.js";

// Chat-template control tokens (Qwen3/ChatML and its tags), shown as marked spans so they read as tokens, not text.
const SPECIAL = /(<\|[a-z_]+\|>|<\/?(?:think|tool_call|tool_response|tools)>)/g;

/**
 * The prompt in three pieces: the reusable prefix (shaded), the first token that could not be
 * reused (marked), and the rest. Special tokens are marked in each piece.
 */
export function PromptText({ prompt }: { prompt: CallDetail["prompt"] }) {
  const { text, reusableChars, divergentToken } = prompt;
  const omitted = prompt.omitted ?? [];
  const box = useRef<HTMLPreElement>(null);
  // Scroll the prompt box (not the page) to where the prompt stops being reusable: that is what to read.
  useLayoutEffect(() => {
    const pre = box.current;
    const mark = pre?.querySelector<HTMLElement>("[data-divergent-token]");
    if (pre !== null && mark !== null && mark !== undefined) pre.scrollTop = Math.max(0, mark.offsetTop - 80);
  }, [prompt]);
  const divergentEnd = divergentToken?.end ?? reusableChars;
  const divergent =
    divergentToken === undefined
      ? null
      : html`<mark class="divergent-token" data-divergent-token="true" title=${`First token that could not be reused (token ${divergentToken.index})`}>${text.slice(reusableChars, divergentEnd)}</mark>`;
  const reusable = html`<span class="reusable-prefix" title="Reusable prefix: identical to the previous call's prompt">${withMarks(text, 0, reusableChars, omitted)}</span>`;
  const rest = html`<span class="new-part">${withMarks(text, divergentEnd, text.length, omitted)}</span>`;
  return html`<pre class="prompt-text" ref=${box} tabindex="0" aria-label="Prompt text">${reusable}${divergent}${rest}</pre>`;
}

/** `text` from `start` to `end`, with the markers of left-out stretches styled apart from the prompt's own text. */
function withMarks(text: string, start: number, end: number, omitted: CallDetail["prompt"]["omitted"]) {
  const pieces: unknown[] = [];
  let at = start;
  for (const gap of omitted) {
    if (gap.end <= at || gap.start >= end) continue;
    if (gap.start > at) pieces.push(...withSpecialTokens(text.slice(at, gap.start)));
    pieces.push(html`<span class="omitted-text" data-omitted-chars=${gap.chars}>${text.slice(Math.max(at, gap.start), Math.min(end, gap.end))}</span>`);
    at = Math.min(end, gap.end);
  }
  if (at < end) pieces.push(...withSpecialTokens(text.slice(at, end)));
  return pieces;
}

function withSpecialTokens(text: string) {
  const pieces = text.split(SPECIAL);
  return pieces.map((piece, index) => (index % 2 === 1 ? html`<span class="special-token">${piece}</span>` : piece));
}
