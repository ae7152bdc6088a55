import { Parser } from "htmlparser2";

export interface HtmlNesting {
  /** Deepest element nesting as the HTML parser that builds the DOM sees it, counted up to `limit + 1`. */
  maxDepth: number;
  elements: number;
  /** The page nests deeper than `limit` (counting stopped there). */
  tooDeep: boolean;
}

class DepthExceeded extends Error {}

/**
 * Measures a page's nesting in one pass, before any DOM is built: the DOM parser, the article
 * extractor and the Markdown converter all slow down (or overflow the stack) on pages nested
 * thousands deep, which only a page built to break parsers is. Stops as soon as `limit` is passed,
 * since the parser's own cost grows with the depth too.
 */
export function measureHtmlNesting(html: string, limit: number): HtmlNesting {
  let depth = 0;
  let maxDepth = 0;
  let elements = 0;
  const parser = new Parser(
    {
      onopentag() {
        depth += 1;
        elements += 1;
        if (depth > maxDepth) maxDepth = depth;
        if (depth > limit) throw new DepthExceeded();
      },
      onclosetag() {
        depth = Math.max(0, depth - 1);
      },
    },
    { decodeEntities: false },
  );
  try {
    parser.end(html);
  } catch (error) {
    if (!(error instanceof DepthExceeded)) throw error;
    return { maxDepth, elements, tooDeep: true };
  }
  return { maxDepth, elements, tooDeep: false };
}
