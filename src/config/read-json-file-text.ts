import { readFileSync } from "node:fs";

/**
 * The text without a leading byte-order mark: Windows PowerShell 5.1's `Out-File -Encoding utf8` and older Notepad write
 * one, and JSON.parse refuses it ("Unexpected token", naming an invisible character) where editors show nothing; in an
 * AGENTS.md it would reach the prompt as an invisible first character.
 */
export function stripByteOrderMark(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** A JSON file's text without a leading byte-order mark (see stripByteOrderMark). */
export function readJsonFileText(path: string): string {
  return stripByteOrderMark(readFileSync(path, "utf8"));
}
