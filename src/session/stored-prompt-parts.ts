import type { SystemPrompt } from "../types/index.js";
import type { PrefixRecord } from "./session-records.js";

/** A stored system prompt split into the caller's base prompt and the context policies' sections. */
export interface StoredPromptParts {
  /** The prompt as the caller gave it, before the policies added their sections. */
  base: SystemPrompt;
  /** The policies' sections as they were sent (undefined: none). */
  sections: string | undefined;
}

/**
 * The parts of a stored prefix's system prompt, from where the record says the policies' sections
 * began (`policySectionsAt`), never from the text: a resume re-adds the sections as they render now
 * to the base, and the person's text is kept whole whatever it holds. Undefined when the record does
 * not say (a file from before it was recorded) or says something the text cannot hold. Pure.
 */
export function storedPromptParts(prefix: Pick<PrefixRecord, "system" | "policySectionsAt">): StoredPromptParts | undefined {
  const at = prefix.policySectionsAt;
  const text = prefix.system.sessionText ?? "";
  if (at === undefined || !Number.isSafeInteger(at) || at < 0 || at > text.length) return undefined;
  if (at === text.length) return { base: { ...prefix.system }, sections: undefined };
  if (at === 0) return { base: { staticText: prefix.system.staticText }, sections: text };
  // The base's session text and the sections are joined by a blank line (resolveAgentPrefix).
  if (at < 2 || text.slice(at - 2, at) !== "\n\n") return undefined;
  return { base: { staticText: prefix.system.staticText, sessionText: text.slice(0, at - 2) }, sections: text.slice(at) };
}
