import { Readability } from "@mozilla/readability";
import { ToolError } from "../../../types/tool-error.js";
import { domToMarkdown, type MarkdownSourceNode } from "./dom-to-markdown.js";
import { measureHtmlNesting } from "./measure-html-nesting.js";
import { parsePage, type PageDocument } from "./page-dom.js";
import { removeHiddenElements, type HiddenContent } from "./remove-hidden-elements.js";

export interface PageMarkdown {
  title: string;
  markdown: string;
  hidden: HiddenContent;
  /** Whether the article extractor found the main content (else the whole visible body was converted). */
  extractedArticle: boolean;
}

/** Deeper pages are refused: real pages stay far below it, parsers slow down quadratically above it. */
export const maxHtmlDepth = 256;
/** Above this many elements the article extractor is skipped (it is superlinear); the body is converted whole. */
const maxArticleElements = 30_000;

/**
 * Turns an untrusted HTML page into Markdown: hidden elements removed (and counted), links made
 * absolute against `pageUrl`, the main article extracted when one is found, then converted.
 */
export function convertHtmlToMarkdown(html: string, pageUrl: string): PageMarkdown {
  const nesting = measureHtmlNesting(html, maxHtmlDepth);
  if (nesting.tooDeep) {
    throw new ToolError(
      "failed",
      `The page nests HTML elements more than ${maxHtmlDepth} deep, which real pages do not; it looks built to break parsers, so it was not converted.`,
    );
  }
  const document = parsePage(html);
  const title = document.title.replace(/\s+/g, " ").trim();
  const hidden = removeHiddenElements(document);
  makeLinksAbsolute(document, pageUrl);
  const visibleBody = document.body?.innerHTML ?? "";
  const article = nesting.elements <= maxArticleElements ? extractArticle(document) : undefined;
  const markdown = toMarkdown(article?.content ?? visibleBody);
  return { title: article?.title?.trim() || title, markdown, hidden, extractedArticle: article !== undefined };
}

function extractArticle(document: PageDocument): { title: string; content: string } | undefined {
  try {
    // Readability's own types name the DOM library's Document, which this project compiles without.
    const parsed = new Readability(document as unknown as ConstructorParameters<typeof Readability>[0], { maxElemsToParse: maxArticleElements }).parse();
    const content = parsed?.content ?? "";
    if (parsed === null || (parsed.textContent ?? "").trim().length < 200) return undefined;
    return { title: parsed.title ?? "", content };
  } catch {
    return undefined;
  }
}

function makeLinksAbsolute(document: PageDocument, pageUrl: string): void {
  for (const [selector, attribute] of [["a[href]", "href"], ["img[src]", "src"]] as const) {
    for (const element of document.querySelectorAll(selector)) {
      const value = element.getAttribute(attribute) ?? "";
      let absolute: URL | undefined;
      try {
        absolute = new URL(value, pageUrl);
      } catch {
        absolute = undefined;
      }
      // A javascript: or data: link is no destination for a reader; its text stays.
      if (absolute === undefined || (absolute.protocol !== "http:" && absolute.protocol !== "https:")) element.removeAttribute(attribute);
      else element.setAttribute(attribute, absolute.href);
    }
  }
}

/** Readability hands back HTML and mutates the page it reads, so the chosen HTML is parsed afresh (with linkedom, as the page was). */
function toMarkdown(html: string): string {
  const body = parsePage(`<!doctype html><html><head></head><body>${html}</body></html>`).body;
  return body === null ? "" : domToMarkdown(body as unknown as MarkdownSourceNode);
}
