import type { ImportedCall, ImportedTranscript } from "../../inspect/index.js";
import type { Message } from "../../types/index.js";

export interface SyntheticTranscriptOptions {
  /** Model calls in the transcript (default 500). */
  calls?: number;
  /**
   * Longest message text kept, in characters (default 600): real observations reach 868k characters,
   * which would push 500 calls past any context window; at 600 the run ends near 150k tokens, the
   * size of a long session in a 200k window. Cut texts keep their head.
   */
  maxMessageChars?: number;
}

/**
 * A long run built from real ones: the system prompt and task of the first run, then the turns
 * (assistant message + observation) of each run replayed one after another until there are
 * `calls` assistant messages. Every call sees everything before its assistant message, as in the
 * originals, so the context grows steadily — the case where per-call cost must stay flat.
 */
export function buildSyntheticTranscript(sources: readonly ImportedTranscript[], options: SyntheticTranscriptOptions = {}): ImportedTranscript {
  const target = options.calls ?? 500;
  const limit = options.maxMessageChars ?? 600;
  const first = sources[0];
  const firstCall = first?.calls[0];
  if (first === undefined || firstCall === undefined) throw new Error("buildSyntheticTranscript needs at least one transcript with a call.");
  const cut = (message: Message, id: string): Message => {
    const meta = { ...message.meta, id };
    if (message.role !== "assistant") return { ...message, content: message.content.slice(0, limit), meta };
    return { ...message, content: message.content.map((part) => (part.type === "text" ? { ...part, text: part.text.slice(0, limit) } : part)), meta };
  };
  const messages: Message[] = firstCall.request.messages.map((message, index) => cut(message, `synthetic:task:${index}`));
  const calls: ImportedCall[] = [];
  for (let round = 0; calls.length < target; round++) {
    for (const source of sources) {
      const last = source.calls.at(-1);
      const taskLength = source.calls[0]?.request.messages.length ?? 0;
      if (last === undefined) continue;
      // The turns after the task: each assistant message, then what came back to it.
      const turns = [...last.request.messages.slice(taskLength), ...(last.response ? [last.response] : [])];
      for (const [index, message] of turns.entries()) {
        if (message.role === "assistant") {
          if (calls.length >= target) break;
          calls.push({ request: { ...firstCall.request, messages: messages.slice() }, source: { file: "synthetic" } });
        }
        messages.push(cut(message, `synthetic:${round}:${source.id}:${index}`));
      }
      if (calls.length >= target) break;
    }
    if (round > target) break;
  }
  return { id: `synthetic-${calls.length}`, format: first.format, file: "(synthetic)", calls, toolsKnown: first.toolsKnown, systemKnown: first.systemKnown };
}
