import { html } from "htm/preact";
import type { Finding } from "./api.js";
import { humanize } from "./format.js";

/** The anti-patterns inspect found, each linked to the calls it shows on. */
export function FindingsView({ findings, onSelect }: { findings: Finding[]; onSelect: (index: number) => void }) {
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
  </section>`;
}
