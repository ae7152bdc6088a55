import { byteOrderMark } from "./decode-text.js";

/** How web_fetch treats a response body. */
export type ContentKind = "html" | "text" | "json" | "binary";

const textTypes = /^(text\/|application\/(xml|javascript|ecmascript|x-javascript|x-sh|x-yaml|yaml|toml|csv|x-www-form-urlencoded)$)|\+xml$/;

/** The media type without parameters, lower-case (`text/html; charset=utf-8` → `text/html`); "" when absent. */
export function mediaTypeOf(contentType: string | undefined): string {
  return (contentType ?? "").split(";")[0]!.trim().toLowerCase();
}

/**
 * The kind a Content-Type header announces, or undefined when it names none web_fetch trusts
 * (absent, `application/octet-stream`): then the body's first bytes decide (`sniffContentKind`).
 */
export function contentKindOf(contentType: string | undefined): ContentKind | undefined {
  const media = mediaTypeOf(contentType);
  if (media === "" || media === "application/octet-stream" || media === "binary/octet-stream") return undefined;
  if (media === "text/html" || media === "application/xhtml+xml") return "html";
  if (media === "application/json" || media.endsWith("+json")) return "json";
  if (textTypes.test(media)) return "text";
  return "binary";
}

// PDF, PNG, GIF, JPEG, ZIP (also docx, xlsx, jar).
const binaryMagicNumbers = [Buffer.from("%PDF-"), Buffer.from([0x89, 0x50, 0x4e, 0x47]), Buffer.from("GIF8"), Buffer.from([0xff, 0xd8, 0xff]), Buffer.from([0x50, 0x4b, 0x03, 0x04])];

/** Guesses from the bytes: NUL bytes or a known magic number mean binary; markup means HTML. */
export function sniffContentKind(bytes: Buffer): ContentKind {
  const head = bytes.subarray(0, 1024);
  if (head.includes(0) || binaryMagicNumbers.some((magic) => head.subarray(0, magic.length).equals(magic))) return "binary";
  const start = head.toString("utf8").trimStart().slice(0, 64).toLowerCase();
  if (start.startsWith("<!doctype html") || start.startsWith("<html") || start.startsWith("<head") || start.startsWith("<body")) return "html";
  if (start.startsWith("{") || start.startsWith("[")) return "json";
  return "text";
}

/**
 * Whether a body whose header announced text, HTML or JSON is binary after all (a server that labels
 * everything text/html, a PNG served as text/plain): a known magic number, or NUL bytes when neither
 * the charset nor a byte-order mark says UTF-16 or UTF-32 (whose text has them; decodeText reads a
 * UTF-16 page by its mark whatever the header says).
 */
export function contradictsTextHeader(bytes: Buffer, contentType: string): boolean {
  const head = bytes.subarray(0, 1024);
  if (binaryMagicNumbers.some((magic) => head.subarray(0, magic.length).equals(magic))) return true;
  const wideText = /charset\s*=\s*["']?utf-?(16|32)/i.test(contentType) || byteOrderMark(head)?.startsWith("utf-16") === true;
  return !wideText && head.includes(0);
}
