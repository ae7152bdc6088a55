import { readFileSync } from "node:fs";

/**
 * A JSON file's text without a leading byte-order mark: Windows PowerShell 5.1's `Out-File -Encoding utf8` and older
 * Notepad write one, and JSON.parse refuses it ("Unexpected token", naming an invisible character) where editors show nothing.
 */
export function readJsonFileText(path: string): string {
  return readFileSync(path, "utf8").replace(/^\uFEFF/, "");
}
