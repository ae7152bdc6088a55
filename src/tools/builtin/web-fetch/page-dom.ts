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
  readonly documentElement: PageElement;
  querySelectorAll(selector: string): Iterable<PageElement>;
}

/** Parses untrusted HTML into a DOM without running anything (linkedom has no script engine). */
export function parsePage(html: string): PageDocument {
  return (parseHTML(html) as unknown as { document: PageDocument }).document;
}
