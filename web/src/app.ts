import { html } from "htm/preact";
import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import { api, withToken, type Finding, type RunsResponse, type TimelineResponse } from "./api.js";
import { CallView } from "./call-view.js";
import { DiffView } from "./diff-view.js";
import { FindingsView } from "./findings-view.js";
import { formatShare, formatTokens, formatUsd } from "./format.js";
import { Timeline, TimelineLegend } from "./timeline.js";
import { TraceSection } from "./trace-view.js";

/** The viewer: run picker and summary, timeline, the selected call, the diff to the call before, findings. */
export function App() {
  const [runs, setRuns] = useState<RunsResponse | undefined>(undefined);
  const [run, setRun] = useState(0);
  const [timeline, setTimeline] = useState<TimelineResponse | undefined>(undefined);
  const [findings, setFindings] = useState<Finding[]>([]);
  const [selected, setSelected] = useState(0);
  const [error, setError] = useState<string | undefined>(undefined);
  const [live, setLive] = useState<"connecting" | "live" | "offline">("connecting");
  const following = useRef(true);

  const load = useCallback(async (runIndex: number) => {
    try {
      // The findings are drawn when they come: the timeline does not wait for them.
      const findingsLoaded = api.findings(runIndex);
      findingsLoaded.catch(() => undefined);
      const [nextRuns, nextTimeline] = await Promise.all([api.runs(), api.timeline(runIndex)]);
      setRuns(nextRuns);
      setTimeline(nextTimeline);
      setError(undefined);
      // Follow a growing run while the last call is selected.
      setSelected((current) => (following.current ? Math.max(0, nextTimeline.calls.length - 1) : Math.min(current, nextTimeline.calls.length - 1)));
      setFindings((await findingsLoaded).findings);
    } catch (failure) {
      setError((failure as Error).message);
    }
  }, []);

  useEffect(() => {
    following.current = true;
    void load(run);
  }, [run, load]);

  useEffect(() => {
    const events = new EventSource(withToken("./api/events"));
    let seen: number | undefined;
    events.addEventListener("update", (event) => {
      setLive("live");
      const { version } = JSON.parse((event as MessageEvent<string>).data) as { version: number };
      if (seen !== undefined && version !== seen) void load(run);
      seen = version;
    });
    events.onerror = () => setLive("offline");
    return () => events.close();
  }, [run, load]);

  const select = useCallback(
    (index: number) => {
      following.current = timeline !== undefined && index === timeline.calls.length - 1;
      setSelected(index);
    },
    [timeline],
  );

  if (error !== undefined && timeline === undefined) return html`<main><h1>ctxkit view</h1><p class="error" role="alert">${error}</p></main>`;
  if (runs === undefined || timeline === undefined) return html`<main><h1>ctxkit view</h1><p class="loading">Loading…</p></main>`;
  const summary = timeline.run;
  const call = timeline.calls[selected];
  const totals = summary.totals;

  return html`<main>
    <header class="page-header">
      <h1>ctxkit view</h1>
      ${runs.runs.length > 1
        ? html`<label class="run-picker">run
            <select value=${run} onChange=${(event: Event) => setRun(Number((event.currentTarget as HTMLSelectElement).value))}>
              ${runs.runs.map((item) => html`<option value=${item.index}>${item.id} (${item.calls} calls)</option>`)}
            </select>
          </label>`
        : null}
      <span class=${`live live-${live}`} role="status" aria-live="polite">${live === "live" ? "● live" : live === "offline" ? "○ offline" : "…"}</span>
    </header>
    <section class="summary" aria-label="Run summary">
      <p><strong>${summary.id}</strong> · ${summary.format}${summary.model === undefined ? "" : ` · ${summary.model}`} · <span data-calls-total=${summary.calls}>${summary.calls} calls</span></p>
      <dl class="totals">
        <div><dt>prompt tokens</dt><dd>${formatTokens(totals.promptTokens)}</dd></div>
        <div><dt>reusable</dt><dd>${formatShare(totals.reusableShare)} (limit ${formatShare(totals.appendOnlyLimitShare)})</dd></div>
        <div><dt>reported cached</dt><dd>${formatShare(totals.reportedCachedShare)}</dd></div>
        <div><dt>breaks</dt><dd>${totals.breaks} (${totals.undeclaredBreaks} undeclared)</dd></div>
        <div><dt>cost</dt><dd>${formatUsd(totals.cost?.total)}${totals.cost === null ? "" : ` (${totals.cost.pricing})`}</dd></div>
      </dl>
      ${summary.notes.length === 0 ? null : html`<details><summary>Notes (${summary.notes.length})</summary><ul>${summary.notes.map((note) => html`<li>${note}</li>`)}</ul></details>`}
      ${error === undefined ? null : html`<p class="error" role="alert">${error}</p>`}
    </section>
    <section class="timeline-section" aria-labelledby="timeline-heading">
      <h2 id="timeline-heading">Timeline: prompt tokens per call</h2>
      <${TimelineLegend} />
      <${Timeline} calls=${timeline.calls} selected=${selected} onSelect=${select} />
    </section>
    <div class="panels">
      ${call === undefined ? html`<p class="muted">The run has no calls yet.</p>` : html`<${CallView} run=${run} call=${call} version=${timeline.version} />`}
      ${call === undefined ? null : html`<${DiffView} run=${run} calls=${timeline.calls.length} to=${call.index} version=${timeline.version} />`}
    </div>
    <${FindingsView} findings=${findings} calls=${timeline.calls} onSelect=${select} />
    <${TraceSection} selected=${{ run, call: selected }} onSelectCall=${(runIndex: number, callIndex: number) => (runIndex === run ? select(callIndex) : setRun(runIndex))} />
  </main>`;
}
