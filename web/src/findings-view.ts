import { html } from "htm/preact";
import type { Finding, TimelineCall } from "./api.js";
import { formatTokens, humanize } from "./format.js";

/** The anti-patterns inspect found and every undeclared cache break, each linked to the calls it shows on. */
export function FindingsView({ findings, calls, onSelect }: { findings: Finding[]; calls: TimelineCall[]; onSelect: (index: number) => void }) {
  const undeclared = calls.flatMap((call) => call.breaks.filter((item) => !item.declared).map((item) => ({ call: call.index, item })));
  const declared = calls.reduce((count, call) => count + call.breaks.filter((item) => item.declared).length, 0);
  return html`<section class="findings" aria-labelledby="findings-heading">
    <h2 id="findings-heading">Findings (${findings.length})</h2>
    ${findings.length === 0
      ? html`<p class="muted">No anti-patterns found.</p>`
      : html`<ul>
          ${findings.map(
            (finding) => html`<li class=${`finding severity-${finding.severity}`} data-finding=${finding.code}>
              <strong>${humanize(finding.code)}</strong> <span class="severity">${finding.severity}</span>
              <p>${finding.message}</p>
              <p class="finding-calls">
                Calls:
                ${finding.calls.slice(0, 40).map((index) => html` <button type="button" class="link" data-finding-call=${index} onClick=${() => onSelect(index)}>${index}</button>`)}
                ${finding.calls.length > 40 ? ` … and ${finding.calls.length - 40} more` : ""}
              </p>
            </li>`,
          )}
        </ul>`}
    ${declared === 0 && undeclared.length === 0
      ? html`<h3>Cache breaks</h3><p class="muted" data-no-breaks>No cache breaks: every call's prompt extends the one before.</p>`
      : html`<h3>Undeclared cache breaks (${undeclared.length})</h3>`}
    ${undeclared.length === 0
      ? declared === 0
        ? null
        : html`<p class="muted">None: ${declared === 1 ? "the one break the run has was" : `all ${declared} breaks the run has were`} declared (a compaction, a context edit).</p>`
      : html`<ul class="undeclared-breaks">
          ${undeclared.slice(0, 200).map(
            ({ call, item }) => html`<li data-undeclared-break=${call}>
              <button type="button" class="link" data-break-call=${call} onClick=${() => onSelect(call)}>call ${call}</button>${" "}in ${item.layer}: ${humanize(item.cause)} — ${item.detail} (${formatTokens(item.lostTokens)} tokens no longer reusable)
            </li>`,
          )}
          ${undeclared.length > 200 ? html`<li>… and ${undeclared.length - 200} more</li>` : null}
        </ul>`}
  </section>`;
}
