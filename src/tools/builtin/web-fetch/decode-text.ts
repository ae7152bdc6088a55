export interface DecodedText {
  text: string;
  /** The encoding used to decode. */
  charset: string;
  /** Set when the page named an encoding this runtime does not know (then UTF-8 was used). */
  unknownCharset?: string;
}

/**
 * Decodes a body with the charset its Content-Type names, else (for HTML) a `<meta charset>` in
 * its first 2 KB, else UTF-8 (or what a byte-order mark says). Invalid bytes become U+FFFD; an
 * unknown charset label falls back to UTF-8 and is reported.
 */
export function decodeText(bytes: Buffer, contentType: string, isHtml: boolean): DecodedText {
  const bom = byteOrderMark(bytes);
  const declared = bom ?? charsetParameter(contentType) ?? (isHtml ? metaCharset(bytes) : undefined);
  const label = (declared ?? "utf-8").trim().toLowerCase();
  let decoder: InstanceType<typeof TextDecoder>;
  try {
    decoder = new TextDecoder(label);
  } catch {
    return { text: new TextDecoder("utf-8").decode(bytes), charset: "utf-8", unknownCharset: label.slice(0, 40) };
  }
  return { text: decoder.decode(bytes), charset: decoder.encoding };
}

/** The encoding a byte-order mark at the start of `bytes` names; undefined without one. */
export function byteOrderMark(bytes: Buffer): string | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return "utf-8";
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return "utf-16le";
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return "utf-16be";
  return undefined;
}

function charsetParameter(contentType: string): string | undefined {
  const match = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType);
  return match?.[1];
}

function metaCharset(bytes: Buffer): string | undefined {
  const head = bytes.subarray(0, 2048).toString("latin1");
  const match = /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(head);
  return match?.[1];
}
