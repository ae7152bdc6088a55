import { html } from "htm/preact";
import type { TimelineCall } from "./api.js";

/**
 * Why a call's cached tokens fell short of its reusable prefix. The summary already names the cause,
 * the tokens billed again at the full input price and, when the model has prices, the dollars.
 */
export function CacheMissNote({ miss }: { miss: TimelineCall["miss"] }) {
  if (miss === undefined) return null;
  return html`<p class="cache-miss" role="note"><strong>Cache miss</strong>: ${miss.summary}.</p>`;
}
