import { html } from "htm/preact";
import { useEffect, useState } from "preact/hooks";
import { api } from "./api.js";
import { App } from "./app.js";
import { TraceSection } from "./trace-view.js";

/** The page: the viewer of the runs, or only the trace when `ctxkit view` was given trace files alone. */
export function ViewerRoot() {
  const [mode, setMode] = useState<"loading" | "runs" | "trace">("loading");
  useEffect(() => {
    api
      .runs()
      .then((body) => setMode(body.runs.length === 0 ? "trace" : "runs"))
      .catch(() => setMode("runs"));
  }, []);
  if (mode === "loading") return html`<main><h1>ctxkit view</h1><p class="loading">Loading…</p></main>`;
  if (mode === "runs") return html`<${App} />`;
  return html`<main><header class="page-header"><h1>ctxkit view</h1></header><${TraceSection} /></main>`;
}
