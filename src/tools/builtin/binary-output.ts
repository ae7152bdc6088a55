/**
 * Control characters text does use: NUL (`find -print0`), backspace (spinners, `man`'s bold),
 * tab, line feed, vertical tab, form feed, carriage return (progress bars) and escape (colours).
 */
const textControls = new Set([0x00, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1b]);

/**
 * Whether a command's kept output is binary rather than text: more than a tenth of its characters are
 * bytes that are not UTF-8 (decoded as U+FFFD) or control characters that text does not use. A
 * command's errors at the end of a spinner's backspaces or a progress bar's carriage returns stay
 * text. Shown as text, `head -c 50M /dev/urandom` is some 30 KB of
 * replacement characters: tokens the model pays for and can read nothing from.
 */
export function looksBinary(text: string): boolean {
  if (text.length === 0) return false;
  let unreadable = 0;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code === 0xfffd || (code < 0x20 && !textControls.has(code)) || code === 0x7f) unreadable += 1;
  }
  return unreadable * 10 > text.length;
}

/** What the result shows instead of binary output: its size, and how to look at it. */
export function describeBinaryOutput(totalBytes: number): string {
  return `(binary output, ${totalBytes} bytes, not shown as text: pipe it through \`xxd | head\`, \`od -c | head\` or \`file -\` to look at it, or redirect it to a file)`;
}
