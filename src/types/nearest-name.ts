import { createLazyRequire } from "./lazy-require.js";

// fastest-levenshtein is loaded by the first typo to suggest for, not when the CLI starts.
const requireFromHere = createLazyRequire(import.meta.url);

/**
 * The candidate nearest to what was typed, when it is at most `maxEdits` edits away (a typo), else
 * undefined: the "did you mean …?" of an unknown flag, config key, value or skill. `ignoreCase`
 * counts the edits without case ('MAXITERATIONS' is still a typo of 'maxIterations').
 */
export function nearestName(typed: string, candidates: readonly string[], maxEdits: number, options: { ignoreCase?: boolean } = {}): string | undefined {
  if (candidates.length === 0) return undefined;
  const { closest, distance } = requireFromHere("fastest-levenshtein") as typeof import("fastest-levenshtein");
  const nearest = closest(typed, candidates as string[]);
  const edits = options.ignoreCase === true ? distance(typed.toLowerCase(), nearest.toLowerCase()) : distance(typed, nearest);
  return edits <= maxEdits ? nearest : undefined;
}
