import { escapeForTerminal } from "../escape-for-terminal.js";
import { neutraliseMarkers } from "../external-content/neutralise-markers.js";

/**
 * Puts text that came from outside the harness (a model-written argument, a TODO item, the user's
 * request) into the status bar as a quoted, single-line, truncated JSON string. The model trusts the
 * status bar almost unconditionally (seed, "状态栏投毒"), so nothing in it may read as the harness
 * speaking: newlines are escaped, `<` and `>` too (no forged `</agent_status>`), bidi and invisible
 * characters too (escapeForTerminal: no text that displays as something else), and length is capped.
 */
export function quoteExternal(text: string, maxCharacters = 80): string {
  // The same neutraliser as external tool results: no forged boundary, harness tag or template
  // token survives in any disguise (entities, homoglyphs, invisible characters), not only as `<`.
  const singleLine = neutraliseMarkers(text).text.replace(/\s+/g, " ").trim();
  const characters = Array.from(singleLine);
  const cut = characters.length > maxCharacters ? `${characters.slice(0, Math.max(1, maxCharacters - 1)).join("")}…` : singleLine;
  // Once more at the end: collapsing whitespace and escaping invisible characters can themselves
  // join letters into a marker ("<\u200Bs" becomes "\u003c s\\u200B").
  return neutraliseMarkers(escapeForTerminal(JSON.stringify(cut)).replace(/</g, "\\u003c").replace(/>/g, "\\u003e")).text;
}

/** Tool names are chosen by the model (an unknown tool can be any string): plain names stay bare, anything else is quoted. */
export function quoteName(name: string): string {
  return /^[A-Za-z0-9_.:-]{1,64}$/.test(name) ? name : quoteExternal(name, 40);
}

/** Compact JSON (already one line) from the model, capped and with `<`/`>` escaped — still valid JSON when not cut. */
export function compactJson(json: string, maxCharacters = 120): string {
  json = neutraliseMarkers(json).text;
  const cut = json.length > maxCharacters ? `${json.slice(0, maxCharacters - 1)}…` : json;
  return neutraliseMarkers(escapeForTerminal(cut.replace(/[\r\n]+/g, " ")).replace(/</g, "\\u003c").replace(/>/g, "\\u003e")).text;
}
