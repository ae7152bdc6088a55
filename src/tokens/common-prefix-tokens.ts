/**
 * Length of the longest common prefix of two sequences — token arrays, or strings (UTF-16 units):
 * what a prefix cache can reuse when `b` follows `a`.
 */
export function commonPrefixLength<T extends string | ArrayLike<unknown>>(a: T, b: T): number {
  const limit = Math.min(a.length, b.length);
  let index = 0;
  while (index < limit && a[index] === b[index]) index += 1;
  return index;
}

/** `commonPrefixLength` for token sequences: the tokens request `b` can reuse from request `a`. */
export function commonPrefixTokens(a: readonly number[], b: readonly number[]): number {
  return commonPrefixLength(a, b);
}
