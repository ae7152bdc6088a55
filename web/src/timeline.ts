import { html } from "htm/preact";
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import type { TimelineCall } from "./api.js";
import { columnPaths } from "./column-paths.js";
import { CostChart } from "./cost-chart.js";
import { formatShare, formatTokens, formatUsd, humanize } from "./format.js";

const COLUMN = 10;
const GAP = 1.5;
const BAR_HEIGHT = 200;
const MARK_BAND = 16;
const LAYER_NAMES = ["system", "tools", "history", "tail"] as const;

interface TimelineProps {
  calls: TimelineCall[];
  selected: number;
  onSelect: (index: number) => void;
}

/**
 * One column per call, stacked by layer (system, tools, history, tail) with each layer's reusable
 * part solid and its new part pale; cache breaks and compactions are marked above the column. The
 * bars are painted as one path per layer and part; each call keeps its own element (a transparent
 * hit area carrying `data-call-index` and its markers) for the mouse, the keyboard and scripts.
 * The columns form one roving-tabindex group: arrow keys, Home and End move between calls.
 */
export function Timeline({ calls, selected, onSelect }: TimelineProps) {
  const [hovered, setHovered] = useState<{ index: number; left: number; top: number; onRight: boolean } | undefined>(undefined);
  const container = useRef<HTMLDivElement>(null);
  const focusRequested = useRef(false);
  const width = Math.max(1, calls.length) * COLUMN;

  useEffect(() => {
    if (!focusRequested.current) return;
    focusRequested.current = false;
    container.current?.querySelector<SVGGElement>(`[data-call-index="${selected}"]`)?.focus();
  }, [selected]);

  const bars = useMemo(() => layerPaths(calls), [calls]);
  // Memoized so a hover (a re-render for the tooltip) does not rebuild 500 columns.
  const columns = useMemo(() => calls.map((call) => callColumn(call, call.index === selected)), [calls, selected]);

  const callOf = (event: Event): { index: number; element: Element } | undefined => {
    const element = (event.target as Element | null)?.closest?.("[data-call-index]");
    if (element === null || element === undefined) return undefined;
    return { index: Number(element.getAttribute("data-call-index")), element };
  };
  const show = (event: Event) => {
    const target = callOf(event);
    if (target === undefined || (hovered !== undefined && hovered.index === target.index)) return;
    const box = target.element.getBoundingClientRect();
    const host = container.current!.getBoundingClientRect();
    // Beside the column, on the side with more room, below the markers.
    const center = box.left - host.left + box.width / 2;
    const onRight = center < host.width / 2;
    setHovered({ index: target.index, left: onRight ? box.right - host.left + 8 : box.left - host.left - 8, top: 24, onRight });
  };
  const onKeyDown = (event: KeyboardEvent) => {
    const moves: Record<string, number> = { ArrowLeft: selected - 1, ArrowRight: selected + 1, Home: 0, End: calls.length - 1, PageUp: selected - 10, PageDown: selected + 10 };
    const next = moves[event.key];
    if (next === undefined) return;
    event.preventDefault();
    focusRequested.current = true;
    onSelect(Math.min(calls.length - 1, Math.max(0, next)));
  };
  const hoveredCall = hovered === undefined ? undefined : calls[hovered.index];

  // One listener of each kind for the whole chart, not five per column.
  return html`<div class="timeline" ref=${container} onKeyDown=${onKeyDown}>
    <svg
      class="timeline-chart"
      role="group"
      aria-label=${`Prompt tokens of ${calls.length} calls, stacked by layer; arrow keys move between calls`}
      viewBox=${`0 0 ${width} ${BAR_HEIGHT + MARK_BAND}`}
      preserveAspectRatio="none"
      style=${`width: min(100%, ${calls.length * 48}px)`}
      onClick=${(event: MouseEvent) => {
        const target = callOf(event);
        if (target !== undefined) onSelect(target.index);
      }}
      onMouseOver=${show}
      onMouseLeave=${() => setHovered(undefined)}
      onFocusCapture=${show}
      onBlurCapture=${() => setHovered(undefined)}
    >
      ${columns}
      ${bars.map((path) => html`<path class=${path.series} d=${path.d} />`)}
    </svg>
    <${CostChart} calls=${calls} selected=${selected} column=${COLUMN} gap=${GAP} />
    ${hoveredCall !== undefined && hovered !== undefined
      ? html`<div class=${`tooltip${hovered.onRight ? "" : " on-left"}`} role="tooltip" style=${`left: ${hovered.left}px; top: ${hovered.top}px`}>${tooltipLines(hoveredCall)}</div>`
      : null}
  </div>`;
}

/** The bars of every call: for each layer, its reusable part (solid) and its new part (pale), bottom up. */
function layerPaths(calls: TimelineCall[]) {
  const scale = BAR_HEIGHT / Math.max(1, ...calls.map((call) => call.promptTokens));
  return columnPaths(calls.length, COLUMN, GAP, (index) => {
    let y = BAR_HEIGHT + MARK_BAND;
    return calls[index]!.layers.flatMap((layer) =>
      (
        [
          ["reusable", layer.reusable],
          ["new", layer.tokens - layer.reusable],
        ] as const
      ).map(([kind, tokens]) => {
        const height = Math.max(0, tokens) * scale;
        y -= height;
        return { series: `layer layer-${layer.layer} ${kind}`, y, height };
      }),
    );
  });
}

/** A call's own element: the hit area (highlighted when selected or hovered) and its break and compaction markers. */
function callColumn(call: TimelineCall, isSelected: boolean) {
  const x = call.index * COLUMN;
  const undeclared = call.breaks.some((item) => !item.declared);
  return html`<g
    key=${call.index}
    class=${`call${isSelected ? " selected" : ""}`}
    data-call-index=${call.index}
    tabindex=${isSelected ? 0 : -1}
    role="button"
    aria-pressed=${isSelected}
    aria-label=${describeCall(call)}
  >
    <rect class="hit" x=${x} y="0" width=${COLUMN} height=${BAR_HEIGHT + MARK_BAND} />
    ${call.breaks.length > 0
      ? html`<rect
          class=${`break-marker${undeclared ? " undeclared" : " declared"}`}
          data-break-layer=${call.breaks[0]!.layer}
          data-break-cause=${call.breaks[0]!.cause}
          x=${x + GAP / 2}
          y="1"
          width=${COLUMN - GAP}
          height=${MARK_BAND / 2 - 1}
        />`
      : null}
    ${call.compaction !== undefined
      ? html`<rect class="compaction-marker" data-compaction="true" x=${x + GAP / 2} y=${MARK_BAND / 2 + 1} width=${COLUMN - GAP} height=${MARK_BAND / 2 - 2} />`
      : null}
  </g>`;
}

function describeCall(call: TimelineCall): string {
  const parts = [`Call ${call.index}: ${call.promptTokens} prompt tokens, ${call.reusablePrefixTokens} reusable, ${call.newTokens} new`];
  for (const item of call.breaks) parts.push(`cache break in ${item.layer}: ${humanize(item.cause)}${item.declared ? " (declared)" : ""}`);
  if (call.compaction !== undefined) parts.push(`compaction: ${call.compaction.reason}`);
  return parts.join("; ");
}

function tooltipLines(call: TimelineCall) {
  const share = call.promptTokens === 0 ? 0 : call.reusablePrefixTokens / call.promptTokens;
  return html`<strong>Call ${call.index}</strong>
    <dl>
      <dt>prompt</dt><dd>${formatTokens(call.promptTokens)} tokens</dd>
      <dt>reusable</dt><dd>${formatTokens(call.reusablePrefixTokens)} (${formatShare(share)})</dd>
      <dt>new</dt><dd>${formatTokens(call.newTokens)}</dd>
      ${call.layers.map((layer) => html`<dt>${layer.layer}</dt><dd>${formatTokens(layer.tokens)} (${formatTokens(layer.reusable)} reusable)</dd>`)}
      <dt>reported</dt><dd>${formatTokens(call.reportedPromptTokens)} prompt, ${formatTokens(call.reportedCachedTokens)} cached</dd>
      ${call.cost === null ? null : html`<dt>cost</dt><dd>${formatUsd(call.cost.total)}</dd>`}
    </dl>
    ${call.breaks.map(
      (item) => html`<p class="tooltip-break">
        Cache break (${item.declared ? "declared" : "undeclared"}) in <b>${item.layer}</b>: ${humanize(item.cause)} — ${item.detail}
        ${item.reason === undefined ? "" : ` Reason: ${item.reason}.`}
      </p>`,
    )}
    ${call.compaction === undefined ? null : html`<p class="tooltip-compaction">Compaction / context edit: ${call.compaction.reason}</p>`}`;
}

export function TimelineLegend() {
  // Each meaning has its own colour and its own words; marks differ by place and pattern too.
  return html`<ul class="legend" aria-label="Legend">
    ${LAYER_NAMES.map((layer) => html`<li data-legend=${`layer-${layer}`}><span class=${`swatch layer-${layer}`}></span>${layer}</li>`)}
    <li data-legend="reusable"><span class="swatch layer-history"></span>solid: reusable</li>
    <li data-legend="new"><span class="swatch layer-history new"></span>pale: new</li>
    <li data-legend="break"><span class="swatch break-marker undeclared"></span>cache break (top mark, solid)</li>
    <li data-legend="declared"><span class="swatch break-marker declared"></span>declared break (top mark, dashed)</li>
    <li data-legend="compaction"><span class="swatch compaction-marker"></span>compaction (lower mark)</li>
    <li data-legend="cost-uncached"><span class="swatch cost-uncached"></span>cost: uncached input</li>
    <li data-legend="cost-cached"><span class="swatch cost-cached"></span>cost: cached input</li>
    <li data-legend="cost-output"><span class="swatch cost-output"></span>cost: output</li>
    <li data-legend="special"><span class="special-token">${"<|im_start|>"}</span> special token (prompt text)</li>
  </ul>`;
}
