/**
 * The text without a leading byte-order mark: Windows PowerShell 5.1's `Out-File -Encoding utf8` and older Notepad write
 * one, and JSON.parse refuses it ("Unexpected token", naming an invisible character) where editors show nothing; in an
 * AGENTS.md it would reach the prompt as an invisible first character. Here, in the top layer, so that every layer's
 * file readers (chat templates in src/tokens included) share it.
 */
export function stripByteOrderMark(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
