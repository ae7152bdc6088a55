/** A plain-text table: the first column left-aligned, the others right-aligned, a rule under the header. */
export function formatTextTable(header: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? "").length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!)))
      .join("  ")
      .trimEnd();
  return [line(header), widths.map((width) => "-".repeat(width)).join("  "), ...rows.map(line)].join("\n");
}

export const formatInteger = (value: number): string => Math.round(value).toLocaleString("en-US");
export const formatDollars = (value: number): string => `$${value >= 1 ? value.toFixed(2) : value.toFixed(4)}`;
