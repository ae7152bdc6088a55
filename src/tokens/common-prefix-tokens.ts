/**
 * Length of the longest common prefix of two token sequences: the tokens a prefix cache can reuse
 * when request `b` follows request `a`.
 */
export function commonPrefixTokens(a: readonly number[], b: readonly number[]): number {
  const limit = Math.min(a.length, b.length);
  let index = 0;
  while (index < limit && a[index] === b[index]) index += 1;
  return index;
}
