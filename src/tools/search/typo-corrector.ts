/**
 * Corrects a misspelt query term to the words of a fixed vocabulary one edit away, counting a swap
 * of two neighbouring letters as one edit ("clikc" → "click", "serach" → "search"): plain
 * Levenshtein counts a swap as two, so a short word could never be matched with it. Lookup is by
 * single-deletion variants (the SymSpell idea): time grows with the term's length, not with the
 * vocabulary.
 */
export interface TypoCorrector {
  /** The vocabulary's words one edit from `term` (none when `term` is itself a word, or too short). */
  correct(term: string): string[];
}

/** Below this length one edit changes too much of a word ("tab" → "tag", "tap"). */
const minTermChars = 4;
/** Most corrections kept for one term (a short term can be one edit from many words). */
const maxCorrections = 3;

export function createTypoCorrector(vocabulary: Iterable<string>): TypoCorrector {
  const words = new Set(vocabulary);
  const byVariant = new Map<string, string[]>();
  const addVariant = (variant: string, word: string) => {
    const list = byVariant.get(variant);
    if (list === undefined) byVariant.set(variant, [word]);
    else if (!list.includes(word)) list.push(word);
  };
  for (const word of words) {
    if (word.length < minTermChars - 1) continue;
    addVariant(word, word);
    for (const variant of deletionVariants(word)) addVariant(variant, word);
  }
  return {
    correct(term) {
      if (term.length < minTermChars || words.has(term)) return [];
      const candidates = new Set<string>();
      for (const variant of [term, ...deletionVariants(term)]) for (const word of byVariant.get(variant) ?? []) candidates.add(word);
      return [...candidates].filter((word) => isOneEditApart(term, word)).slice(0, maxCorrections);
    },
  };
}

function deletionVariants(word: string): string[] {
  const variants: string[] = [];
  for (let index = 0; index < word.length; index += 1) variants.push(word.slice(0, index) + word.slice(index + 1));
  return variants;
}

/** One insertion, deletion, substitution or swap of neighbours (optimal string alignment distance 1). */
export function isOneEditApart(left: string, right: string): boolean {
  if (left === right || Math.abs(left.length - right.length) > 1) return false;
  let start = 0;
  while (start < left.length && start < right.length && left[start] === right[start]) start += 1;
  let leftEnd = left.length;
  let rightEnd = right.length;
  while (leftEnd > start && rightEnd > start && left[leftEnd - 1] === right[rightEnd - 1]) {
    leftEnd -= 1;
    rightEnd -= 1;
  }
  const leftMiddle = left.slice(start, leftEnd);
  const rightMiddle = right.slice(start, rightEnd);
  if (leftMiddle.length + rightMiddle.length <= 1) return true;
  if (leftMiddle.length === 1 && rightMiddle.length === 1) return true;
  return leftMiddle.length === 2 && rightMiddle.length === 2 && leftMiddle[0] === rightMiddle[1] && leftMiddle[1] === rightMiddle[0];
}
