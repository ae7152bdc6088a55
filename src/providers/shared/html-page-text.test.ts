import { describe, expect, it } from "vitest";
import { htmlPageText } from "./html-page-text.js";
import { extractMessage } from "./fetch-with-retry.js";

/** Shaped like Cloudflare's 502 page: kilobytes of inline CSS and a script before any words. */
function cloudflarePage(): string {
  const css = Array.from({ length: 200 }, (_, rule) => `.cf-rule-${rule} { margin: 0 auto; padding: ${rule}px; color: #404040; }`).join("\n");
  return [
    "<!DOCTYPE html>",
    '<html lang="en-US"><head><title>example.com | 502: Bad gateway</title>',
    `<meta charset="UTF-8" /><style>${css}</style>`,
    '<script>(function(){window._cf_chl_opt={cvId: "3", cType: "non-interactive"}; if (a < b && c > d) {}})();</script>',
    "<!-- cf-error-details: <p>not this</p> -->",
    "</head><body>",
    '<div id="cf-wrapper"><h1><span class="inline-block">Bad gateway</span> <span class="code-label">Error code 502</span></h1>',
    "<p>The web server reported a bad gateway error. What can I do? Please try again in a few minutes &amp; check the origin&#39;s status&nbsp;&mdash; &lt;ok&gt; &#8220;now&#x201D;.</p>",
    '<div class="cf-footer">Cloudflare Ray ID: <strong>8c1a2b3c4d5e6f70</strong></div></div></body></html>',
  ].join("\n");
}

describe("htmlPageText", () => {
  it("gives a Cloudflare page's title and words, without its inline CSS, script or comments, within the 500-character cap", () => {
    const page = cloudflarePage();
    expect(page.length).toBeGreaterThan(10_000);
    const message = extractMessage(page);
    expect(message.length).toBeLessThanOrEqual(500);
    expect(message).toBe(
      "example.com | 502: Bad gateway: Bad gateway Error code 502 The web server reported a bad gateway error. What can I do? Please try again in a few minutes & check the origin's status &mdash; <ok> \u201Cnow\u201D. Cloudflare Ray ID: 8c1a2b3c4d5e6f70",
    );
  });

  it("does not repeat a title the body starts with, and survives unclosed scripts and comments", () => {
    expect(htmlPageText("<html><head><title>403 Forbidden</title></head><body><h1>403 Forbidden</h1><hr>nginx</body></html>")).toBe("403 Forbidden nginx");
    expect(htmlPageText("<p>Bad gateway</p><script>never closed <p>hidden")).toBe("Bad gateway");
    expect(htmlPageText("<p>Bad gateway</p><!-- never closed <p>hidden")).toBe("Bad gateway");
    expect(htmlPageText("<title>Only a title</title>")).toBe("Only a title");
  });
});
