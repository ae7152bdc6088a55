/** Default most characters of one tool result the loop keeps (about 1 MB of text). */
export const defaultMaxToolResultCharacters = 1_000_000;

/**
 * Cuts an oversized tool result to its start and end before anything else handles it: compression,
 * the session, token counting and request serialisation then cost as much as the cap, not as the
 * tool's output (a 50 MB result stalled the event loop for seconds and peaked at 535 MB RSS). Tools
 * should page their own output (the built-in ones do); this is the backstop for those that do not.
 */
export function capToolOutput(content: string, maxCharacters = defaultMaxToolResultCharacters): string {
  if (content.length <= maxCharacters) return content;
  let headEnd = Math.floor(maxCharacters / 2);
  let tailStart = content.length - (maxCharacters - headEnd);
  // Never split a surrogate pair: a lone half would be invalid text in the request JSON.
  if (isHighSurrogate(content.charCodeAt(headEnd - 1))) headEnd -= 1;
  if (isLowSurrogate(content.charCodeAt(tailStart))) tailStart += 1;
  const cut = tailStart - headEnd;
  return (
    `${copyOf(content.slice(0, headEnd))}\n[… ${cut} characters cut from the middle: a tool result keeps at most ${maxCharacters} ` +
    `characters; ask for a smaller part (a narrower path, a range, a filter) …]\n${copyOf(content.slice(tailStart))}`
  );
}

/**
 * A slice of a long string in V8 is a view that keeps the whole original alive: five capped 50 MB
 * results held 283 MB. A copy of the kept characters lets the original be collected. UTF-16LE
 * round-trips every code unit as it is.
 */
function copyOf(piece: string): string {
  return Buffer.from(piece, "utf16le").toString("utf16le");
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
