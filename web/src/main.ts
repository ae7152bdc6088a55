import { html, render } from "htm/preact";
import { App } from "./app.js";

const root = document.getElementById("app")!;
// The HTML's own "Loading…" goes: Preact renders beside what the container holds, not over it.
root.replaceChildren();
render(html`<${App} />`, root);
