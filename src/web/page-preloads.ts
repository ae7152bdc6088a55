/**
 * The page's first API requests (the run list, run 0's timeline and findings, and the call the page
 * opens on, the last one, with its diff to the call before) as preload links in its HTML, so the browser asks for them while the
 * page's script is still loading rather than after it ran. Without the call's link, its prompt was
 * asked for only once the timeline was drawn: the page said "Loading call N…" for a round trip and
 * a render more. The hrefs are exactly the URLs the page's script fetches (web/src/api.ts), with the
 * token when auth is on, so the browser hands the script the preloaded responses.
 */
export function withApiPreloads(html: string, token: string | undefined, lastCall?: number): string {
  const withToken = (path: string) => (token === undefined ? path : `${path}${path.includes("?") ? "&" : "?"}token=${encodeURIComponent(token)}`);
  const opened = lastCall === undefined || lastCall < 0 ? [] : [`./api/runs/0/calls/${lastCall}?view=template`, ...(lastCall > 0 ? [`./api/runs/0/diff?from=${lastCall - 1}&to=${lastCall}`] : [])];
  const paths = ["./api/runs", "./api/runs/0/timeline", "./api/runs/0/findings", ...opened];
  const links = paths.map((path) => `<link rel="preload" as="fetch" crossorigin href="${withToken(path).replace(/&/g, "&amp;")}">`).join("\n    ");
  const head = html.indexOf("</head>");
  return head < 0 ? html : `${html.slice(0, head)}  ${links}\n  ${html.slice(head)}`;
}
