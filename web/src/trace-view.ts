import { html } from "htm/preact";
import { useEffect, useMemo, useState } from "preact/hooks";
import { getJson } from "./api.js";
import "./trace-view.css";
import type { TraceAttributeValue, TraceFileView, TraceSpanView } from "../../src/web/otlp-trace-file.js";

export interface TracesResponse {
  traces: TraceFileView[];
}

interface Row {
  span: TraceSpanView;
  depth: number;
}

/** Spans in tree order (each after its parent, siblings by start); a span whose parent is missing is a root. */
function treeRows(spans: readonly TraceSpanView[]): Row[] {
  const ids = new Set(spans.map((span) => span.spanId));
  const children = new Map<string, TraceSpanView[]>();
  const roots: TraceSpanView[] = [];
  for (const span of spans) {
    if (span.parentSpanId !== "" && ids.has(span.parentSpanId) && span.parentSpanId !== span.spanId) {
      const list = children.get(span.parentSpanId) ?? [];
      list.push(span);
      children.set(span.parentSpanId, list);
    } else roots.push(span);
  }
  const rows: Row[] = [];
  const seen = new Set<string>();
  // Iterative, so a deep or cyclic file cannot overflow the stack.
  const stack: Row[] = roots.reverse().map((span) => ({ span, depth: 0 }));
  while (stack.length > 0) {
    const row = stack.pop()!;
    if (seen.has(row.span.spanId)) continue;
    seen.add(row.span.spanId);
    rows.push(row);
    const kids = children.get(row.span.spanId) ?? [];
    for (let index = kids.length - 1; index >= 0; index--) stack.push({ span: kids[index]!, depth: Math.min(row.depth + 1, 40) });
  }
  return rows;
}

const formatMs = (ms: number) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(ms < 10 ? 1 : 0)} ms`);

function formatValue(value: TraceAttributeValue): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** The span's story in a line: tokens, finish, reuse, cache break, tool outcome. */
function summary(attributes: Record<string, TraceAttributeValue>): string {
  const parts: string[] = [];
  const input = attributes["gen_ai.usage.input_tokens"];
  if (typeof input === "number") parts.push(`in ${input} (cached ${String(attributes["gen_ai.usage.cache_read.input_tokens"] ?? 0)}) out ${String(attributes["gen_ai.usage.output_tokens"] ?? 0)}`);
  if (attributes["gen_ai.response.finish_reasons"] !== undefined) parts.push(`finish ${formatValue(attributes["gen_ai.response.finish_reasons"])}`);
  if (typeof attributes["ctxkit.prefix.reusable_tokens"] === "number") parts.push(`reusable ${attributes["ctxkit.prefix.reusable_tokens"]}`);
  if (attributes["ctxkit.policy.compaction"] === true) parts.push("compaction");
  if (attributes["ctxkit.policy.clearing"] === true) parts.push("clearing");
  if (attributes["ctxkit.cache_break"] === true) parts.push(`cache break ${attributes["ctxkit.cache_break.declared"] === true ? "declared" : "undeclared"} (${String(attributes["ctxkit.cache_break.layer"])})`);
  if (typeof attributes["ctxkit.tool.confirmation"] === "string" && attributes["ctxkit.tool.confirmation"] !== "not_required") parts.push(attributes["ctxkit.tool.confirmation"]);
  if (attributes["ctxkit.tool.capped"] === true) parts.push(attributes["ctxkit.tool.spilled"] === true ? "capped, spilled" : "capped");
  if (typeof attributes["ctxkit.cost.usd"] === "number") parts.push(`$${attributes["ctxkit.cost.usd"].toFixed(5)}`);
  return parts.join(" · ");
}

/** gen_ai.* first, then ctxkit.*, then the rest, each alphabetical. */
function orderedAttributes(attributes: Record<string, TraceAttributeValue>): Array<[string, TraceAttributeValue]> {
  const rank = (key: string) => (key.startsWith("gen_ai.") ? 0 : key.startsWith("ctxkit.") ? 1 : 2);
  return Object.entries(attributes).sort(([left], [right]) => rank(left) - rank(right) || left.localeCompare(right));
}

export interface TraceViewProps {
  trace: TraceFileView;
  /** The call selected in the timeline: its chat span is marked. */
  selected?: { run: number; call: number };
  onSelectCall?: (run: number, call: number) => void;
}

/** One trace file: the span tree with a bar per span on the file's time axis; a span opens to its attributes. */
export function TraceView({ trace, selected, onSelectCall }: TraceViewProps) {
  const rows = useMemo(() => treeRows(trace.spans), [trace]);
  const total = Math.max(1e-6, ...trace.spans.map((span) => span.startMs + span.durationMs));
  const [open, setOpen] = useState<string | undefined>(undefined);
  return html`<div class="trace-file" data-trace-file=${trace.file}>
    <h3>${trace.file.split(/[\\/]/).pop()} <span class="muted">(${trace.spans.length} spans, ${formatMs(total)})</span></h3>
    ${trace.problems.length === 0 ? null : html`<details class="trace-problems"><summary>Skipped (${trace.problems.length})</summary><ul>${trace.problems.map((problem) => html`<li>${problem}</li>`)}</ul></details>`}
    <ol class="span-tree" role="tree" aria-label="Spans">
      ${rows.map(({ span, depth }) => {
        const linked = span.call !== undefined && selected !== undefined && span.call.run === selected.run && span.call.call === selected.call;
        const expanded = open === span.spanId;
        const line = summary(span.attributes);
        return html`<li
          role="treeitem"
          aria-level=${depth + 1}
          aria-expanded=${expanded}
          class=${`span-row${span.status.code === 2 ? " span-error" : ""}${linked ? " span-linked" : ""}`}
          data-span-id=${span.spanId}
          data-span-name=${span.name}
          data-depth=${depth}
          aria-current=${linked ? "true" : undefined}
        >
          <div class="span-line">
            <button type="button" class="span-name link" style=${`padding-left: ${depth * 1.25}rem`} onClick=${() => setOpen(expanded ? undefined : span.spanId)}>${span.name}</button>
            <span class="span-bar-track" aria-hidden="true"><span class="span-bar" style=${`left: ${(span.startMs / total) * 100}%; width: ${Math.max(0.3, (span.durationMs / total) * 100)}%`}></span></span>
            <span class="span-duration" data-duration-ms=${span.durationMs}>${formatMs(span.durationMs)}</span>
            ${span.call === undefined ? null : html`<button type="button" class="link span-call" data-span-call=${span.call.call} onClick=${() => onSelectCall?.(span.call!.run, span.call!.call)}>call ${span.call.call}</button>`}
          </div>
          ${line === "" ? null : html`<div class="span-summary muted" style=${`padding-left: ${depth * 1.25}rem`}>${line}</div>`}
          ${expanded
            ? html`<table class="span-attributes" data-span-attributes=${span.spanId}>
                <tbody>
                  <tr><th>span id</th><td>${span.spanId}</td></tr>
                  <tr><th>trace id</th><td>${span.traceId}</td></tr>
                  <tr><th>start</th><td>+${formatMs(span.startMs)}</td></tr>
                  ${span.status.code === 2 ? html`<tr><th>status</th><td>error${span.status.message ? `: ${span.status.message}` : ""}</td></tr>` : null}
                  ${orderedAttributes(span.attributes).map(([key, value]) => html`<tr data-attribute=${key}><th>${key}</th><td>${formatValue(value)}</td></tr>`)}
                </tbody>
              </table>`
            : null}
        </li>`;
      })}
    </ol>
  </div>`;
}

/** The traces given to `ctxkit view` (none: nothing is drawn). */
export function TraceSection({ selected, onSelectCall }: Omit<TraceViewProps, "trace">) {
  const [traces, setTraces] = useState<TraceFileView[] | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  useEffect(() => {
    getJson<TracesResponse>("./api/traces")
      .then((body) => setTraces(body.traces))
      .catch((failure: unknown) => setError((failure as Error).message));
  }, []);
  if (error !== undefined) return html`<section class="traces"><p class="error" role="alert">${error}</p></section>`;
  if (traces === undefined || traces.length === 0) return null;
  return html`<section class="traces" aria-labelledby="traces-heading">
    <h2 id="traces-heading">Trace</h2>
    ${traces.map((trace) => html`<${TraceView} trace=${trace} selected=${selected} onSelectCall=${onSelectCall} />`)}
  </section>`;
}
