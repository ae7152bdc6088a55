import { wholeCharacterOffset } from "./bound-shown-text.js";
import type { MessageView } from "./message-view.js";

/**
 * How much message text one diff sends in all: the same 1,000,000 characters a call's prompt is sent
 * whole up to. Each message is already cut to its head, but a compaction can replace thousands of
 * messages, and a diff of them all was sent unbounded (the page froze laying it out).
 */
export const diffTextLimits = { total: 1_000_000 };

/**
 * The diff's messages with their texts cut, in the order given, once their sum passes `limits.total`
 * characters: a cut message keeps its start and counts the rest in `truncated`, as one cut to its head does.
 * Returns the characters cut this way, so the diff can say how much the budget left out.
 */
export function boundDiffMessages(messages: readonly MessageView[], limits = diffTextLimits): number {
  let left = limits.total;
  let cut = 0;
  for (const message of messages) {
    if (message.text.length <= left) {
      left -= message.text.length;
      continue;
    }
    const keep = wholeCharacterOffset(message.text, left, -1);
    cut += message.text.length - keep;
    message.truncated += message.text.length - keep;
    message.text = message.text.slice(0, keep);
    left = 0;
  }
  return cut;
}
