// ESC [ … final byte (CSI: colours, cursor moves), ESC ] … BEL/ST (OSC: titles, hyperlinks), and
// two-character escapes. Matching control characters is the point here.
// eslint-disable-next-line no-control-regex
const ANSI_PATTERN = new RegExp("\\u001b\\[[0-?]*[ -/]*[@-~]|\\u001b\\][^\\u0007\\u001b]*(?:\\u0007|\\u001b\\\\)|\\u001b[@-Z\\\\-_]", "g");

/** A run of identical lines longer than this is collapsed into one line and a count. */
const REPEAT_THRESHOLD = 3;

/**
 * Removes what costs tokens and carries nothing, at write time, before the result is frozen:
 * ANSI escape codes, progress-bar redraws (text a carriage return overwrote, as a terminal would
 * show it), and long runs of identical lines (kept once, with how many there were). Noise is
 * deleted, not summarised — summarising noise only wastes tokens (the seed's layer 2).
 */
export function removeNoise(text: string): string {
  if (text === "") return text;
  let cleaned = text.includes("\u001b") ? text.replace(ANSI_PATTERN, "") : text;
  if (cleaned.includes("\r")) cleaned = cleaned.split("\n").map(resolveCarriageReturns).join("\n");
  return collapseRepeatedLines(cleaned);
}

/** `"10%\r50%\r100%"` shows as `"100%"`; a trailing `\r` (CRLF) is kept as is. */
function resolveCarriageReturns(line: string): string {
  const body = line.endsWith("\r") ? line.slice(0, -1) : line;
  if (!body.includes("\r")) return line;
  let screen = "";
  for (const segment of body.split("\r")) screen = segment + screen.slice(segment.length);
  return line.endsWith("\r") ? `${screen}\r` : screen;
}

function collapseRepeatedLines(text: string): string {
  const lines = text.split("\n");
  const kept: string[] = [];
  let index = 0;
  while (index < lines.length) {
    const line = lines[index]!;
    let end = index + 1;
    while (end < lines.length && lines[end] === line) end += 1;
    const run = end - index;
    if (run > REPEAT_THRESHOLD && line.trim() !== "") {
      kept.push(line, `[… the line above repeated ${run - 1} more times …]`);
    } else {
      for (let copy = 0; copy < run; copy += 1) kept.push(line);
    }
    index = end;
  }
  return kept.join("\n");
}
