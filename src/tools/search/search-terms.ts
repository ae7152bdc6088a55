import { stemWord } from "./stem-word.js";

/** Longest word the index keeps: a base64 blob or a minified line is not a search term. */
const maxWordChars = 40;

const stopWords = new Set([
  "a", "an", "the", "of", "to", "and", "or", "in", "on", "for", "is", "be", "it", "this", "that", "with", "as", "by", "at",
  "i", "my", "me", "you", "your", "we", "our", "us", "its", "are", "was", "do", "does", "can", "could", "would", "please",
  "want", "need", "let", "some", "any", "there", "so", "into", "from",
]);

export interface SearchTermOptions {
  /** Reduce words to stems (`stemWord`). */
  stemming: boolean;
}

/**
 * The terms of a text, for tool names, descriptions and queries alike: split at anything that is
 * not a letter or digit; an identifier with humps gives its parts and the whole word, so
 * "getUserDetails" yields "get", "user", "details" and "getuserdetails", and "JavaScript" stays
 * findable as "javascript" as well as "java" + "script". Lowercased, stop words dropped.
 */
export function toSearchTerms(text: string, options: SearchTermOptions): string[] {
  const terms: string[] = [];
  for (const token of text.split(/[^\p{L}\p{N}]+/u)) {
    if (token === "" || token.length > maxWordChars) continue;
    // "PRs", "URLs", "IDs": an acronym's plural is the acronym, not "P" + "Rs".
    const acronymPlural = /^\p{Lu}{2,}s$/u.test(token);
    const word = acronymPlural ? token.slice(0, -1) : token;
    const parts = acronymPlural ? [word] : word.replace(/(\p{Ll}|\p{N})(\p{Lu})/gu, "$1 $2").replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, "$1 $2").split(" ");
    const words = parts.length > 1 ? [...parts, word] : parts;
    for (const part of words) {
      const lower = part.toLowerCase();
      if (stopWords.has(lower)) continue;
      terms.push(options.stemming ? stemWord(lower) : lower);
    }
  }
  return terms;
}
