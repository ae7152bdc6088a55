import { formatByteSize } from "../file-content.js";
import type { FetchedPage } from "./fetch-page.js";
import type { HiddenContent } from "./remove-hidden-elements.js";

export interface FetchResultParts {
  page: FetchedPage;
  title?: string;
  body: string;
  hidden?: HiddenContent;
  notes: string[];
}

/** The text the model gets: where the page came from, what was left out and why, then the page. */
export function formatFetchResult({ page, title, body, hidden, notes }: FetchResultParts): string {
  const lines = [`URL: ${page.url}`];
  if (page.redirectedFrom.length > 0) lines.push(`Redirected from: ${page.redirectedFrom.join(" → ")}`);
  lines.push(`Content: ${page.contentType || page.kind}, ${formatByteSize(page.bytes.length)}`);
  if (title) lines.push(`Title: ${title}`);
  if (hidden && hidden.blocks > 0) {
    lines.push(
      `Note: the page had ${hidden.blocks} hidden block${hidden.blocks === 1 ? "" : "s"} of ${hidden.chars} chars ` +
        "(text a reader of the page does not see); removed, not shown here.",
    );
  }
  if (page.truncated) lines.push(`Note: the page was cut at ${formatByteSize(page.bytes.length)}; what follows is its beginning.`);
  for (const note of notes) lines.push(`Note: ${note}`);
  return `${lines.join("\n")}\n\n${body.length > 0 ? body : "(the page has no readable text)"}`;
}
