/**
 * A light English stemmer for tool-search terms: plurals, `-ing`, `-ed`, `-ion`/`-ation` and a final
 * `e`, so "creating", "created", "creation" and "create" meet at "creat", and "entities" at "entity".
 * Lighter than Porter on purpose: tool vocabularies are short verbs and nouns, and over-stemming
 * ("user" → "us") would merge tools that differ. Applied the same way to tools and queries.
 */
export function stemWord(word: string): string {
  if (word.length <= 3 || !/^[a-z]+$/.test(word)) return word;
  let stem = stripPlural(word);
  stem = stripVerbSuffix(stem);
  return stem.length > 3 && stem.endsWith("e") ? stem.slice(0, -1) : stem;
}

function stripPlural(word: string): string {
  if (word.endsWith("ies") && word.length > 4) return `${word.slice(0, -3)}y`;
  if (word.endsWith("sses")) return word.slice(0, -2);
  if (/(?:x|z|ch|sh)es$/.test(word)) return word.slice(0, -2);
  if (word.endsWith("s") && !/(?:ss|us|is)$/.test(word)) return word.slice(0, -1);
  return word;
}

const vowel = /[aeiouy]/;

function stripVerbSuffix(word: string): string {
  for (const [suffix, replacement] of [
    ["ation", "ate"],
    ["ion", ""],
    ["ing", ""],
    ["ed", ""],
  ] as const) {
    if (!word.endsWith(suffix)) continue;
    const stem = word.slice(0, -suffix.length) + replacement;
    // "string", "need", "lion": what is left must still be a word of its own.
    if (stem.length < 3 || !vowel.test(stem)) return word;
    if (suffix === "ion" && !/[ts]$/.test(stem)) return word;
    return suffix === "ing" || suffix === "ed" ? undouble(stem) : stem;
  }
  return word;
}

/** "running" → "runn" → "run"; but "fill", "pass" and "buzz" keep their doubled end. */
function undouble(stem: string): string {
  return /([^aeiouylsz])\1$/.test(stem) ? stem.slice(0, -1) : stem;
}
