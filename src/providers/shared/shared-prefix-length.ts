/** Length of the longest common prefix of two strings (in UTF-16 units) or two token arrays. */
export function sharedPrefixLength<T extends string | ArrayLike<unknown>>(left: T, right: T): number {
  const limit = Math.min(left.length, right.length);
  let index = 0;
  while (index < limit && left[index] === right[index]) index++;
  return index;
}
