import { html } from "htm/preact";
import { useEffect, useState } from "preact/hooks";
import { CacheMissNote } from "./cache-miss-note.js";
import { api, type CallDetail, type PromptView, type TimelineCall } from "./api.js";
import { formatShare, formatTokens, formatUsd, humanize } from "./format.js";
import { PromptText } from "./prompt-text.js";

interface CallViewProps {
  run: number;
  call: TimelineCall;
  /** Bumped when the run was reloaded, so an open call is fetched again. */
  version: number;
}

/** One call: usage (provider's vs ctxkit's), breaks, status bar, response and the prompt text, fetched on demand. */
export function CallView({ run, call, version }: CallViewProps) {
  const [view, setView] = useState<PromptView>("template");
  const [detail, setDetail] = useState<CallDetail | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  useEffect(() => {
    const controller = new AbortController();
    setError(undefined);
    api
      .call(run, call.index, view, controller.signal)
      .then(setDetail)
      .catch((failure: Error) => {
        if (!controller.signal.aborted) setError(failure.message);
      });
    return () => controller.abort();
  }, [run, call.index, view, version]);
  const current = detail?.index === call.index && detail.view === view ? detail : undefined;

  return html`<section class="call-view" aria-labelledby="call-heading">
    <h2 id="call-heading">Call ${call.index}</h2>
    <div class="call-facts">
      <table class="usage">
        <caption>Usage: the provider's report next to ctxkit's count</caption>
        <thead><tr><th scope="col"></th><th scope="col">provider reported</th><th scope="col">ctxkit counted</th></tr></thead>
        <tbody>
          <tr><th scope="row">prompt tokens</th><td>${formatTokens(call.reportedPromptTokens)}</td><td>${formatTokens(call.promptTokens)}</td></tr>
          <tr><th scope="row">cached / reusable</th><td>${formatTokens(call.reportedCachedTokens)}</td><td>${formatTokens(call.reusablePrefixTokens)} (${formatShare(call.promptTokens === 0 ? 0 : call.reusablePrefixTokens / call.promptTokens)})</td></tr>
          <tr><th scope="row">new tokens</th><td>${call.reportedPromptTokens === null || call.reportedCachedTokens === null ? "—" : formatTokens(call.reportedPromptTokens - call.reportedCachedTokens)}</td><td>${formatTokens(call.newTokens)}</td></tr>
          <tr><th scope="row">output tokens</th><td>${formatTokens(current?.usage.reported?.completionTokens)}</td><td>—</td></tr>
          <tr><th scope="row">cost</th><td>${formatUsd(current?.usage.reported?.cost)}</td><td>${formatUsd(call.cost?.total)}</td></tr>
        </tbody>
      </table>
      ${current === undefined ? null : html`<p class="muted">ctxkit counts with ${current.usage.counted.tokenizer}; source ${current.source.file}${current.source.line === undefined ? "" : `:${current.source.line}`}</p>`}
      ${call.breaks.length === 0
        ? html`<p class="no-break">No cache break: this prompt extends the previous one.</p>`
        : call.breaks.map(
            (item) => html`<p class=${`break-detail ${item.declared ? "declared" : "undeclared"}`}>
              <strong>Cache break${item.declared ? " (declared)" : ""}</strong> in ${item.layer}: ${humanize(item.cause)}. ${item.detail}${" "}${formatTokens(item.lostTokens)} tokens of the previous prompt could no longer be reused.${item.reason === undefined ? "" : ` Reason: ${item.reason}.`}
            </p>`,
          )}
      <${CacheMissNote} miss=${call.miss} />
    </div>
    ${error === undefined ? null : html`<p class="error" role="alert">Could not load call ${call.index}: ${error}</p>`}
    ${current === undefined
      ? error === undefined
        ? html`<p class="loading">Loading call ${call.index}…</p>`
        : null
      : html`<div class="call-body">
          <h3>Prompt</h3>
          <div class="prompt-toolbar" role="radiogroup" aria-label="Prompt view">
            <label><input type="radio" name="prompt-view" value="template" checked=${view === "template"} onChange=${() => setView("template")} /> chat template (special tokens visible)</label>
            <label><input type="radio" name="prompt-view" value="wire" checked=${view === "wire"} onChange=${() => setView("wire")} /> wire JSON (Chat Completions body)</label>
            <span class="muted">${view === "template" ? `${formatTokens(current.prompt.tokens)} tokens; shaded: reusable prefix; marked: first divergent token` : `${formatTokens(current.prompt.fullLength)} characters; shaded: bytes shared with the previous call's body`}</span>
          </div>
          <${PromptText} prompt=${current.prompt} />
          <h3>Status bar</h3>
          ${current.statusBar === null ? html`<p class="muted">No status bar (tail) on this call.</p>` : html`<pre class="status-bar">${current.statusBar}</pre>`}
          <h3>Response</h3>
          ${current.response === null
            ? html`<p class="muted">The transcript does not record this call's response.</p>`
            : html`<pre class="response">${current.response.thinking === "" ? "" : `<think>${current.response.thinking}</think>\n`}${current.response.text}${current.response.toolCalls.map((tool) => `\n→ ${tool.name}(${tool.argumentsText})`).join("")}</pre>`}
        </div>`}
  </section>`;
}
