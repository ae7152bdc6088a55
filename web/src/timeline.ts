import { html } from "htm/preact";
import { useEffect, useRef, useState } from "preact/hooks";
import type { TimelineCall } from "./api.js";
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
 * columns form one roving-tabindex group: arrow keys, Home and End move between calls.
 */
export function Timeline({ calls, selected, onSelect }: TimelineProps) {
  const [hovered, setHovered] = useState<{ index: number; left: number; top: number; onRight: boolean } | undefined>(undefined);
  const container = useRef<HTMLDivElement>(null);
  const focusRequested = useRef(false);
  const maxTokens = Math.max(1, ...calls.map((call) => call.promptTokens));
  const width = Math.max(1, calls.length) * COLUMN;
  const scale = BAR_HEIGHT / maxTokens;

  useEffect(() => {
    if (!focusRequested.current) return;
    focusRequested.current = false;
    container.current?.querySelector<SVGGElement>(`[data-call-index="${selected}"]`)?.focus();
  }, [selected]);

  const show = (index: number, element: Element) => {
    const box = element.getBoundingClientRect();
    const host = container.current!.getBoundingClientRect();
    // Beside the column, on the side with more room, below the markers.
    const center = box.left - host.left + box.width / 2;
    const onRight = center < host.width / 2;
    setHovered({ index, left: onRight ? box.right - host.left + 8 : box.left - host.left - 8, top: 24, onRight });
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

  return html`<div class="timeline" ref=${container} onKeyDown=${onKeyDown}>
    <svg
      class="timeline-chart"
      role="group"
      aria-label=${`Prompt tokens of ${calls.length} calls, stacked by layer; arrow keys move between calls`}
      viewBox=${`0 0 ${width} ${BAR_HEIGHT + MARK_BAND}`}
      preserveAspectRatio="none"
      style=${`width: min(100%, ${calls.length * 48}px)`}
    >
      ${calls.map((call) => {
        const x = call.index * COLUMN;
        let y = BAR_HEIGHT + MARK_BAND;
        const rects = call.layers.flatMap((layer) => {
          const parts = [];
          for (const [kind, tokens] of [
            ["reusable", layer.reusable],
            ["new", layer.tokens - layer.reusable],
          ] as const) {
            if (tokens <= 0) continue;
            const height = tokens * scale;
            y -= height;
            parts.push(html`<rect class=${`layer layer-${layer.layer} ${kind}`} x=${x + GAP / 2} y=${y} width=${COLUMN - GAP} height=${height} />`);
          }
          return parts;
        });
        const undeclared = call.breaks.some((item) => !item.declared);
        return html`<g
          class=${`call${call.index === selected ? " selected" : ""}`}
          data-call-index=${call.index}
          tabindex=${call.index === selected ? 0 : -1}
          role="button"
          aria-pressed=${call.index === selected}
          aria-label=${describeCall(call)}
          onClick=${() => onSelect(call.index)}
          onFocus=${(event: FocusEvent) => show(call.index, event.currentTarget as Element)}
          onBlur=${() => setHovered(undefined)}
          onMouseEnter=${(event: MouseEvent) => show(call.index, event.currentTarget as Element)}
          onMouseLeave=${() => setHovered(undefined)}
        >
          <rect class="hit" x=${x} y="0" width=${COLUMN} height=${BAR_HEIGHT + MARK_BAND} />
          ${rects}
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
      })}
    </svg>
    <${CostChart} calls=${calls} selected=${selected} />
    ${hoveredCall !== undefined && hovered !== undefined
      ? html`<div class=${`tooltip${hovered.onRight ? "" : " on-left"}`} role="tooltip" style=${`left: ${hovered.left}px; top: ${hovered.top}px`}>${tooltipLines(hoveredCall)}</div>`
      : null}
  </div>`;
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

/** Cost per call, stacked: uncached input (with cache writes), cached input, output. */
function CostChart({ calls, selected }: { calls: TimelineCall[]; selected: number }) {
  if (calls.every((call) => call.cost === null)) return html`<p class="muted">No prices for this model: no cost series (run with a known model).</p>`;
  const height = 60;
  const max = Math.max(1e-12, ...calls.map((call) => call.cost?.total ?? 0));
  const width = Math.max(1, calls.length) * COLUMN;
  return html`<svg
    class="cost-chart"
    role="img"
    aria-label=${`Cost per call; highest ${formatUsd(max)}`}
    viewBox=${`0 0 ${width} ${height}`}
    preserveAspectRatio="none"
    style=${`width: min(100%, ${calls.length * 48}px)`}
  >
    ${calls.map((call) => {
      if (call.cost === null) return null;
      let y = height;
      const x = call.index * COLUMN + GAP / 2;
      return html`<g class=${call.index === selected ? "selected" : ""}>
        ${(["uncached", "cached", "output"] as const).map((kind) => {
          const part = (call.cost![kind] / max) * height;
          y -= part;
          return html`<rect class=${`cost cost-${kind}`} x=${x} y=${y} width=${COLUMN - GAP} height=${part} />`;
        })}
      </g>`;
    })}
  </svg>`;
}

export function TimelineLegend() {
  return html`<ul class="legend" aria-label="Legend">
    ${LAYER_NAMES.map((layer) => html`<li><span class=${`swatch layer-${layer}`}></span>${layer}</li>`)}
    <li><span class="swatch layer-history"></span>solid: reusable</li>
    <li><span class="swatch layer-history new"></span>pale: new</li>
    <li><span class="swatch break-marker undeclared"></span>cache break</li>
    <li><span class="swatch break-marker declared"></span>declared break</li>
    <li><span class="swatch compaction-marker"></span>compaction</li>
    <li><span class="swatch cost-uncached"></span><span class="swatch cost-cached"></span><span class="swatch cost-output"></span>cost: uncached, cached, output</li>
  </ul>`;
}
