/**
 * Longest run of non-separator characters searched for identifiers. Longer runs are data (base64, a
 * minified bundle, a hex dump), not names a later step types again, and searching them is what made
 * extraction quadratic: a 200k-character word froze a run for a minute inside one regex call.
 */
export const maximumIdentifierTokenLength = 512;

export interface IdentifierToken {
  /** The run itself: what the identifier patterns are matched against. */
  text: string;
  /** The run, one whitespace character and the next run, for patterns that span one space ("120 ms"). */
  textWithNext: string;
  /** Where the run starts in the text. */
  start: number;
}

/**
 * Splits text into the runs identifiers can live in, in one linear scan: no identifier pattern
 * matches whitespace or quotes and brackets, so matching each bounded run finds what matching the
 * whole text did, and the cost per run is bounded by its length. Runs longer than
 * `maximumTokenLength` are skipped whole.
 */
export function splitIdentifierTokens(text: string, maximumTokenLength = maximumIdentifierTokenLength): IdentifierToken[] {
  const runs: Array<{ start: number; end: number }> = [];
  let start = -1;
  for (let index = 0; index <= text.length; index += 1) {
    const isSeparator = index === text.length || isSeparatorCode(text.charCodeAt(index));
    if (!isSeparator) {
      if (start === -1) start = index;
      continue;
    }
    if (start !== -1 && index - start <= maximumTokenLength) runs.push({ start, end: index });
    start = -1;
  }
  return runs.map((run, position) => {
    const token = text.slice(run.start, run.end);
    const next = runs[position + 1];
    const joinsNext = next !== undefined && next.start === run.end + 1 && isWhitespaceCode(text.charCodeAt(run.end));
    return { text: token, textWithNext: joinsNext ? text.slice(run.start, next.end) : token, start: run.start };
  });
}

function isSeparatorCode(code: number): boolean {
  return isWhitespaceCode(code) || separatorCodes.has(code);
}

const separatorCodes = new Set([..."\"'`<>()[]{}"].map((character) => character.charCodeAt(0)));

function isWhitespaceCode(code: number): boolean {
  // The characters `\s` matches that occur in practice; exotic spaces only split a run less finely.
  return code === 0x20 || (code >= 0x09 && code <= 0x0d) || code === 0xa0 || code === 0x2028 || code === 0x2029 || code === 0xfeff || (code >= 0x2000 && code <= 0x200a) || code === 0x3000 || code === 0x1680 || code === 0x202f || code === 0x205f;
}
