/**
 * A plain-text table: numbers right-aligned, the `leftColumns` (labels; the first by default)
 * left-aligned, columns two spaces apart, a rule under the header.
 */
export function formatTextTable(header: readonly string[], rows: ReadonlyArray<readonly string[]>, leftColumns: readonly number[] = [0]): string {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? "").length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) => (leftColumns.includes(column) ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!)))
      .join("  ")
      .trimEnd();
  return [line(header), widths.map((width) => "-".repeat(width)).join("  "), ...rows.map(line)].join("\n") + "\n";
}

export function formatInteger(value: number): string {
  return Math.round(value).toLocaleString("en-US");
}

export function formatPercent(share: number): string {
  return `${(share * 100).toFixed(1)}%`;
}

/** Dollars with cents, or four decimals below a dollar (a few dialogues cost cents). */
export function formatDollars(value: number): string {
  return `$${value >= 1 ? value.toFixed(2) : value.toFixed(4)}`;
}
