import { parseHTML } from "linkedom";

/** The part of a DOM element web_fetch uses (the project compiles without the DOM library's types). */
export interface PageElement {
  readonly tagName: string;
  readonly parentElement: PageElement | null;
  readonly isConnected: boolean;
  textContent: string | null;
  innerHTML: string;
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
  removeAttribute(name: string): void;
  hasAttribute(name: string): boolean;
  querySelectorAll(selector: string): Iterable<PageElement>;
  remove(): void;
}

export interface PageDocument {
  readonly title: string;
  readonly head: PageElement | null;
  readonly body: PageElement | null;
  /** Null for a text without elements (linkedom's reading). */
  readonly documentElement: PageElement | null;
  querySelectorAll(selector: string): Iterable<PageElement>;
}

/** Parses untrusted HTML into a DOM without running anything (linkedom has no script engine). */
export function parsePage(html: string): PageDocument {
  // Most pages have their <html> tag: parsed once. A page without one is not parsed twice.
  if (/<html[\s>/]/i.test(html)) {
    const document = parse(html);
    if (document.documentElement?.tagName.toUpperCase() === "HTML") return document;
  }
  // HTML's <html>, <head> and <body> tags are optional, but linkedom reads a page without them as no
  // page: its first element becomes the root, outside any body ("<p>text</p>": no readable text), or
  // there is no root and reading the body throws (an empty page, plain text). A browser puts such a
  // page in a body; so does this, keeping its title.
  const title = /<title\b[^>]*>([^<]*)<\/title\s*>/i.exec(html)?.[1] ?? "";
  const rest = html.replace(/^\s*<!doctype[^>]*>/i, "");
  return parse(`<!doctype html><html><head><title>${title}</title></head><body>${rest}</body></html>`);
}

function parse(html: string): PageDocument {
  return (parseHTML(html) as unknown as { document: PageDocument }).document;
}
