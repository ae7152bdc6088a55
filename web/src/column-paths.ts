/** One stacked segment of a column: its series (the CSS class it is painted with), top and height in chart units. */
export interface ColumnSegment {
  series: string;
  y: number;
  height: number;
}

/**
 * The columns of a chart as one SVG path per series: a 500-call run is a dozen path elements
 * instead of thousands of rectangles, which is what makes the page draw (style, layout, paint)
 * in a fraction of the time. `segmentsOf(index)` gives a column's segments; x is index × column.
 */
export function columnPaths(count: number, column: number, gap: number, segmentsOf: (index: number) => ColumnSegment[]): Array<{ series: string; d: string }> {
  const paths = new Map<string, string[]>();
  const width = column - gap;
  for (let index = 0; index < count; index++) {
    const x = index * column + gap / 2;
    for (const segment of segmentsOf(index)) {
      if (!(segment.height > 0)) continue;
      let parts = paths.get(segment.series);
      if (parts === undefined) paths.set(segment.series, (parts = []));
      parts.push(`M${round(x)} ${round(segment.y)}h${round(width)}v${round(segment.height)}h${round(-width)}z`);
    }
  }
  return [...paths].map(([series, parts]) => ({ series, d: parts.join("") }));
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
