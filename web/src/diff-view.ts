import { html } from "htm/preact";
import { useEffect, useState } from "preact/hooks";
import { api, type DiffResponse, type MessageView } from "./api.js";

interface DiffViewProps {
  run: number;
  calls: number;
  /** The later call; the earlier defaults to the one before it. */
  to: number;
  version: number;
}

/** What changed between two calls: appended messages, edited ones, and for a compaction the messages it replaced and its summary. */
export function DiffView({ run, calls, to, version }: DiffViewProps) {
  const [range, setRange] = useState({ from: Math.max(0, to - 1), to });
  const [diff, setDiff] = useState<DiffResponse | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  useEffect(() => setRange({ from: Math.max(0, to - 1), to }), [to]);
  useEffect(() => {
    const controller = new AbortController();
    setError(undefined);
    api
      .diff(run, range.from, range.to, controller.signal)
      .then(setDiff)
      .catch((failure: Error) => {
        if (!controller.signal.aborted) setError(failure.message);
      });
    return () => controller.abort();
  }, [run, range.from, range.to, version]);
  const pick = (key: "from" | "to") => (event: Event) => {
    const value = Number((event.currentTarget as HTMLInputElement).value);
    if (Number.isInteger(value) && value >= 0 && value < calls) setRange({ ...range, [key]: value });
  };

  return html`<section class="diff-view" aria-labelledby="diff-heading">
    <h2 id="diff-heading">Diff between two calls</h2>
    <form class="diff-range" onSubmit=${(event: Event) => event.preventDefault()}>
      <label>from call <input type="number" name="from" min="0" max=${calls - 1} value=${range.from} onChange=${pick("from")} /></label>
      <label>to call <input type="number" name="to" min="0" max=${calls - 1} value=${range.to} onChange=${pick("to")} /></label>
    </form>
    ${error === undefined ? null : html`<p class="error" role="alert">${error}</p>`}
    ${calls < 2 ? html`<p class="muted">The run has one call: nothing to compare.</p>` : diff === undefined ? null : html`<${DiffBody} diff=${diff} />`}
  </section>`;
}

function DiffBody({ diff }: { diff: DiffResponse }) {
  return html`<div class="diff-body" data-diff-from=${diff.from} data-diff-to=${diff.to}>
    <p>
      ${diff.keptMessages} message${diff.keptMessages === 1 ? "" : "s"} unchanged at the start.
      ${diff.systemChanged ? html` <strong class="changed">The system prompt changed.</strong>` : null}
      ${diff.toolsChanged ? html` <strong class="changed">The tool definitions changed.</strong>` : null}
    </p>
    ${diff.compaction === null
      ? null
      : html`<div class="compaction" data-compaction-diff="true">
          <h3>Compaction</h3>
          <p>${diff.removed.length} message${diff.removed.length === 1 ? "" : "s"} replaced by ${diff.replacements.length} (${diff.compaction.reason}).</p>
        </div>`}
    ${diff.removed.length === 0 ? null : html`<h3>${diff.compaction === null ? "Removed" : "Replaced messages"}</h3><ol class="messages removed">${diff.removed.map((message) => html`<${MessageItem} message=${message} kind="removed" />`)}</ol>`}
    ${diff.changed.length === 0
      ? null
      : html`<h3>Changed after they were sent</h3>
          <ol class="messages changed">
            ${diff.changed.map((pair) => html`<li><${MessageBlock} message=${pair.previous} kind="removed" /><${MessageBlock} message=${pair.next} kind="added" /></li>`)}
          </ol>`}
    ${diff.replacements.length === 0
      ? null
      : html`<h3>${diff.compaction === null ? "Written in their place" : "Written by the compaction (summary, stubs)"}</h3>
          <ol class="messages replacements">${diff.replacements.map((message) => html`<${MessageItem} message=${message} kind="added" />`)}</ol>`}
    ${diff.appended.length === 0
      ? html`<p class="muted">Nothing appended.</p>`
      : html`<h3>Appended</h3><ol class="messages appended">${diff.appended.map((message) => html`<${MessageItem} message=${message} kind="added" />`)}</ol>`}
    ${diff.tail.changed
      ? html`<h3>Tail (status bar)</h3>
          <${Block} kind="removed" label="before" text=${diff.tail.previous ?? "(none)"} />
          <${Block} kind="added" label="after" text=${diff.tail.next ?? "(none)"} />`
      : null}
  </div>`;
}

function MessageItem({ message, kind }: { message: MessageView; kind: "removed" | "added" }) {
  return html`<li><${MessageBlock} message=${message} kind=${kind} /></li>`;
}

function MessageBlock({ message, kind }: { message: MessageView; kind: "removed" | "added" }) {
  const label = `${kind === "removed" ? "−" : "+"} ${message.role}${message.toolName === undefined ? "" : ` (${message.toolName})`}${message.origin === "harness" ? " · harness" : ""}`;
  return html`<${Block} kind=${kind} label=${label} text=${message.text + (message.truncated > 0 ? `\n… ${message.truncated} more characters` : "")} id=${message.id} />`;
}

function Block({ kind, label, text, id }: { kind: "removed" | "added"; label: string; text: string; id?: string }) {
  return html`<div class=${`diff-block diff-${kind}`} data-message-id=${id}>
    <div class="diff-label">${label}</div>
    <pre>${text}</pre>
  </div>`;
}
