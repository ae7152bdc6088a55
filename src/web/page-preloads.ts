/**
 * The page's first API requests (the run list, run 0's timeline and findings) as preload links in
 * its HTML, so the browser asks for them while the page's script is still loading rather than
 * after it ran: one round trip less before the timeline is drawn. The hrefs are exactly the URLs
 * the page's script fetches (web/src/api.ts), with the token when auth is on, so the browser
 * hands the script the preloaded responses.
 */
export function withApiPreloads(html: string, token: string | undefined): string {
  const query = token === undefined ? "" : `?token=${encodeURIComponent(token)}`;
  const links = ["./api/runs", "./api/runs/0/timeline", "./api/runs/0/findings"].map((path) => `<link rel="preload" as="fetch" crossorigin href="${path}${query}">`).join("\n    ");
  const head = html.indexOf("</head>");
  return head < 0 ? html : `${html.slice(0, head)}  ${links}\n  ${html.slice(head)}`;
}
