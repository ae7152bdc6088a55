import { html } from "htm/preact";
import { useMemo } from "preact/hooks";
import type { TimelineCall } from "./api.js";
import { columnPaths } from "./column-paths.js";
import { formatUsd } from "./format.js";

const HEIGHT = 60;
const KINDS = ["uncached", "cached", "output"] as const;

/** Cost per call, stacked: uncached input (with cache writes), cached input, output; one path per series. */
export function CostChart({ calls, selected, column, gap }: { calls: TimelineCall[]; selected: number; column: number; gap: number }) {
  const max = Math.max(1e-12, ...calls.map((call) => call.cost?.total ?? 0));
  const paths = useMemo(
    () =>
      columnPaths(calls.length, column, gap, (index) => {
        const cost = calls[index]!.cost;
        if (cost === null) return [];
        let y = HEIGHT;
        return KINDS.map((kind) => {
          const height = (cost[kind] / max) * HEIGHT;
          y -= height;
          return { series: `cost cost-${kind}`, y, height };
        });
      }),
    [calls, column, gap, max],
  );
  if (calls.every((call) => call.cost === null)) return html`<p class="muted">No prices for this model: no cost series (run with a known model).</p>`;
  const width = Math.max(1, calls.length) * column;
  return html`<svg
    class="cost-chart"
    role="img"
    aria-label=${`Cost per call; highest ${formatUsd(max)}`}
    viewBox=${`0 0 ${width} ${HEIGHT}`}
    preserveAspectRatio="none"
    style=${`width: min(100%, ${calls.length * 48}px)`}
  >
    <rect class="cost-selected" x=${selected * column} y="0" width=${column} height=${HEIGHT} />
    ${paths.map((path) => html`<path class=${path.series} d=${path.d} />`)}
  </svg>`;
}
