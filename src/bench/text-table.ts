import { formatCount } from "../context/format-count.js";

export interface TextTableOptions {
  /** Columns aligned left (labels); the others, numbers, are aligned right. Default: the first. */
  leftColumns?: readonly number[];
  /** A last row set off by a second rule (totals). */
  footer?: readonly string[];
}

/**
 * A plain-text table, one line per row without a final newline: columns two spaces apart, a rule
 * under the header, trailing spaces trimmed.
 */
export function formatTextTable(header: readonly string[], rows: ReadonlyArray<readonly string[]>, options: TextTableOptions = {}): string {
  const leftColumns = options.leftColumns ?? [0];
  const body = options.footer === undefined ? rows : [...rows, options.footer];
  const widths = header.map((title, column) => Math.max(title.length, ...body.map((row) => (row[column] ?? "").length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) => (leftColumns.includes(column) ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!)))
      .join("  ")
      .trimEnd();
  const rule = widths.map((width) => "-".repeat(width)).join("  ");
  const footer = options.footer === undefined ? [] : [rule, line(options.footer)];
  return [line(header), rule, ...rows.map(line), ...footer].join("\n");
}

export function formatInteger(value: number): string {
  return formatCount(Math.round(value));
}

export function formatPercent(share: number): string {
  return `${(share * 100).toFixed(1)}%`;
}

/** Dollars with cents, or four decimals below a dollar (a few dialogues cost cents). */
export function formatDollars(value: number): string {
  return `$${value >= 1 ? value.toFixed(2) : value.toFixed(4)}`;
}
