/**
 * The readable text of a proxy's HTML error page (nginx, Cloudflare): its <title>, then the body's text without
 * scripts, styles, comments or tags, entities decoded. A Cloudflare page opens with kilobytes of inline CSS; stripping
 * tags alone would fill the message with it. One pass with indexOf, so a hostile page costs linear time: the error body
 * is already capped, and an HTML parser is not worth loading on every provider call for this.
 */
export function htmlPageText(html: string): string {
  const lower = html.toLowerCase();
  const parts: string[] = [];
  let title = "";
  let position = 0;
  while (position < html.length) {
    const open = html.indexOf("<", position);
    if (open === -1) {
      parts.push(html.slice(position));
      break;
    }
    parts.push(html.slice(position, open));
    if (lower.startsWith("<!--", open)) {
      position = endOf(lower, "-->", open + 4);
      continue;
    }
    const element = /^<(script|style|title)\b/.exec(lower.slice(open, open + 8))?.[1];
    const tagEnd = endOf(lower, ">", open + 1);
    if (element === undefined) {
      parts.push(" ");
      position = tagEnd;
      continue;
    }
    const close = lower.indexOf(`</${element}`, tagEnd);
    const contentEnd = close === -1 ? html.length : close;
    if (element === "title" && title === "") title = normalise(html.slice(tagEnd, contentEnd));
    position = close === -1 ? html.length : endOf(lower, ">", close);
  }
  const body = normalise(parts.join(" "));
  if (title === "" || body.startsWith(title)) return body;
  return body === "" ? title : `${title}: ${body}`;
}

/** Just past the first `marker` at or after `from`, or the end of the text when there is none. */
function endOf(text: string, marker: string, from: number): number {
  const found = text.indexOf(marker, from);
  return found === -1 ? text.length : found + marker.length;
}

function normalise(text: string): string {
  return decodeEntities(text).replace(/\s+/g, " ").trim();
}

const namedEntities: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]{2,4});/gi, (entity, name: string) => {
    if (name.startsWith("#")) {
      const code = name[1] === "x" || name[1] === "X" ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
      return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : entity;
    }
    return namedEntities[name.toLowerCase()] ?? entity;
  });
}
