/** Most ranges listed before the rest is summarised, so a large replace_all stays a short result. */
const maximumRangesListed = 30;

/** The 1-based line that the character at `index` is on. */
export function lineNumberAt(content: string, index: number): number {
  let line = 1;
  for (let position = content.indexOf("\n"); position !== -1 && position < index; position = content.indexOf("\n", position + 1)) {
    line += 1;
  }
  return line;
}

/** "4, 10-11, 22" from sorted line numbers (duplicates allowed). */
export function formatLineRanges(lines: number[]): string {
  const ranges: string[] = [];
  let index = 0;
  while (index < lines.length) {
    const first = lines[index] as number;
    let last = first;
    while (index + 1 < lines.length && (lines[index + 1] as number) <= last + 1) {
      index += 1;
      last = Math.max(last, lines[index] as number);
    }
    ranges.push(first === last ? `${first}` : `${first}-${last}`);
    index += 1;
  }
  if (ranges.length <= maximumRangesListed) return ranges.join(", ");
  return `${ranges.slice(0, maximumRangesListed).join(", ")} and ${ranges.length - maximumRangesListed} more ranges`;
}
