/**
 * A cheap 53-bit hash of strings (two 32-bit FNV-1a variants), enough to notice that a message id
 * was reused for different content. Not cryptographic.
 */
export function contentHash(parts: readonly string[]): string {
  let low = 0x811c9dc5;
  let high = 0x01000193;
  for (const part of parts) {
    for (let index = 0; index < part.length; index += 1) {
      const code = part.charCodeAt(index);
      low = Math.imul(low ^ code, 0x01000193);
      high = Math.imul(high ^ code, 0x5bd1e995);
    }
    // Separate parts so ["ab", "c"] and ["a", "bc"] differ.
    low = Math.imul(low ^ 0xffff, 0x01000193);
    high = Math.imul(high ^ 0xffff, 0x5bd1e995);
  }
  return ((high >>> 11) * 0x100000000 + (low >>> 0)).toString(36);
}
