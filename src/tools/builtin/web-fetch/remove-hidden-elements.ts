import { hidesContent, normalizeColor, parseDeclarations } from "./hidden-style.js";
import type { PageDocument, PageElement } from "./page-dom.js";

/** What was taken out of a page because a reader would not see it. */
export interface HiddenContent {
  /** Hidden elements that held text. */
  blocks: number;
  /** Characters of text in them (whitespace collapsed). */
  chars: number;
}

// Each selector is one query over the page; a style sheet of thousands of hiding rules costs no more than this many.
const maxHidingSelectors = 300;

// Never content: code, styling, embedded documents and form plumbing.
const droppedElements = "script, style, noscript, template, iframe, frame, frameset, object, embed, applet, link, meta, base, svg, math, canvas, input[type=hidden]";

/**
 * Removes what a person reading the page would not see — `hidden`, `aria-hidden="true"`, inline
 * styles and simple style-sheet rules that hide (display, visibility, opacity, zero size, off-screen,
 * clipping, text coloured like its background) — and counts it, so the result can say that hidden
 * text was there without passing it on. Scripts, styles and embeds are dropped uncounted.
 */
export function removeHiddenElements(document: PageDocument): HiddenContent {
  const hidingSelectors = findHidingSelectors(document);
  for (const element of [...document.querySelectorAll(droppedElements)]) element.remove();
  const hidden: HiddenContent = { blocks: 0, chars: 0 };
  const hiddenByRules = new Set<PageElement>();
  for (const selector of hidingSelectors) {
    for (const element of matches(document, selector)) hiddenByRules.add(element);
  }
  for (const element of [...document.querySelectorAll("body *")]) {
    // Inside an element removed already.
    if (!element.isConnected) continue;
    if (!hiddenByRules.has(element) && !isHiddenElement(element)) continue;
    const text = (element.textContent ?? "").replace(/\s+/g, " ").trim();
    if (text.length > 0) {
      hidden.blocks += 1;
      hidden.chars += text.length;
    }
    element.remove();
  }
  return hidden;
}

function isHiddenElement(element: PageElement): boolean {
  if (element.hasAttribute("hidden")) return true;
  if ((element.getAttribute("aria-hidden") ?? "").trim().toLowerCase() === "true") return true;
  const style = element.getAttribute("style");
  if (style === null || style === "") return false;
  return hidesContent(style) || isColoredLikeBackground(element, style);
}

/** Text whose colour is its background's: the nearest inline background up the tree, else white. */
function isColoredLikeBackground(element: PageElement, style: string): boolean {
  const color = normalizeColor(parseDeclarations(style).get("color") ?? "");
  if (color === undefined) return false;
  let current: PageElement | null = element;
  while (current !== null) {
    const background = parseDeclarations(current.getAttribute("style") ?? "").get("background-color");
    if (background !== undefined) return normalizeColor(background) === color;
    current = current.parentElement;
  }
  return color === "#ffffff";
}

/** Selectors of style-sheet rules whose declarations hide; rules inside @media and other at-rules are skipped. */
function findHidingSelectors(document: PageDocument): string[] {
  const selectors: string[] = [];
  for (const sheet of document.querySelectorAll("style")) {
    const css = topLevelRules((sheet.textContent ?? "").replace(/\/\*[\s\S]*?\*\//g, ""));
    for (const rule of css.matchAll(/([^{}]+)\{([^{}]*)\}/g)) {
      if (!hidesContent(rule[2]!)) continue;
      for (const selector of rule[1]!.split(",")) {
        const trimmed = selector.trim();
        if (trimmed !== "" && !trimmed.includes(":") && selectors.length < maxHidingSelectors) selectors.push(trimmed);
      }
    }
  }
  return selectors;
}

/** The CSS text without at-rule blocks (`@media … { … }`): what applies unconditionally. */
function topLevelRules(css: string): string {
  let output = "";
  let depth = 0;
  let skipping = false;
  for (let index = 0; index < css.length; index++) {
    const character = css[index]!;
    if (depth === 0 && character === "@") skipping = true;
    if (character === "{") depth += 1;
    if (!skipping) output += character;
    if (character === "}") {
      depth = Math.max(0, depth - 1);
      if (depth === 0 && skipping) skipping = false;
    }
    if (character === ";" && depth === 0 && skipping) skipping = false;
  }
  return output;
}

function matches(document: PageDocument, selector: string): PageElement[] {
  try {
    return [...document.querySelectorAll(selector)];
  } catch {
    return [];
  }
}
