/** Deeper than any real message, tool call or transcript nests, and far below where recursion overflows. */
export const maximumJsonNesting = 256;

/**
 * What a session line may nest: a record wraps what it stores in a few levels (record → message →
 * content → part → arguments), so a tool call accepted at `maximumJsonNesting` must load back.
 */
export const maximumSessionLineNesting = maximumJsonNesting + 32;

/**
 * `JSON.parse` for text from outside (a model, a server, a file). It also refuses arrays and
 * objects nested deeper than `maximumJsonNesting`, with a SyntaxError like any other bad JSON:
 * `JSON.parse` accepts 5,000 levels, but `JSON.stringify` and every recursive reader after it then
 * overflow the stack (a RangeError that escaped as a crash). One linear pass, before parsing.
 */
export function parseUntrustedJson(text: string, maximumNesting = maximumJsonNesting): unknown {
  const deep = positionNestedDeeperThan(text, maximumNesting);
  if (deep !== undefined) throw new SyntaxError(`JSON nested deeper than ${maximumNesting} levels (at position ${deep})`);
  return JSON.parse(text) as unknown;
}

/** Where `text`, read as JSON, first opens an array or object deeper than `maximumNesting`; undefined when it never does. One linear pass. */
export function positionNestedDeeperThan(text: string, maximumNesting: number): number | undefined {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c) index += 1; // a backslash escapes the next character
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) {
      inString = true;
    } else if (code === 0x5b || code === 0x7b) {
      depth += 1;
      if (depth > maximumNesting) return index;
    } else if (code === 0x5d || code === 0x7d) {
      depth -= 1;
    }
  }
  return undefined;
}
