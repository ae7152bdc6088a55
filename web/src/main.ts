import { html, render } from "htm/preact";
import { ViewerRoot } from "./viewer-root.js";

const root = document.getElementById("app")!;
// The HTML's own "Loading…" goes: Preact renders beside what the container holds, not over it.
root.replaceChildren();
render(html`<${ViewerRoot} />`, root);
