/**
 * Whether a command's kept output is binary rather than text: more than a tenth of its characters are
 * bytes that are not UTF-8 (decoded as U+FFFD) or control characters that text does not use (not
 * tab, line breaks, form feed, escape — terminal colours — nor NUL, which `find -print0` and
 * `xargs -0` lists separate names with). Shown as text, `head -c 50M /dev/urandom` is some 30 KB of
 * replacement characters: tokens the model pays for and can read nothing from.
 */
export function looksBinary(text: string): boolean {
  if (text.length === 0) return false;
  let unreadable = 0;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code === 0xfffd || (code < 0x20 && code !== 0x00 && code !== 0x09 && code !== 0x0a && code !== 0x0c && code !== 0x0d && code !== 0x1b) || code === 0x7f) unreadable += 1;
  }
  return unreadable * 10 > text.length;
}

/** What the result shows instead of binary output: its size, and how to look at it. */
export function describeBinaryOutput(totalBytes: number): string {
  return `(binary output, ${totalBytes} bytes, not shown as text: pipe it through \`xxd | head\`, \`od -c | head\` or \`file -\` to look at it, or redirect it to a file)`;
}
