import { describe, expect, it } from "vitest";
import { domToMarkdown, type MarkdownSourceNode } from "./dom-to-markdown.js";
import { parsePage } from "./page-dom.js";

const markdown = (body: string): string => domToMarkdown(parsePage(`<!doctype html><html><body>${body}</body></html>`).body as unknown as MarkdownSourceNode);

describe("domToMarkdown", () => {
  it("writes ATX headings, paragraphs, emphasis and inline code", () => {
    expect(markdown(`<h2>Install <em>it</em></h2><p>Run <code>npm i ctxkit</code>,<strong> then </strong>go.</p>`)).toBe("## Install _it_\n\nRun `npm i ctxkit`, **then** go.");
    expect(markdown("<p>a <code>x ` y</code> b</p>")).toBe("a ``x ` y`` b");
  });

  it("escapes text that Markdown would read as syntax", () => {
    expect(markdown("<p>*stars* and snake_case [x] \\ back</p>")).toBe("\\*stars\\* and snake\\_case \\[x\\] \\\\ back");
    expect(markdown("<p># not a heading</p><p>- not a list</p><p>1. not ordered</p><p>---</p>")).toBe("\\# not a heading\n\n\\- not a list\n\n1\\. not ordered\n\n\\---");
  });

  it("writes nested and numbered lists, indented under their markers", () => {
    expect(markdown(`<ul><li>one<ul><li>nested</li></ul></li><li><p>two</p><p>more</p></li></ul><ol start="3"><li>three</li><li>four</li></ol>`)).toBe(
      "- one\n  - nested\n- two\n  more\n\n3. three\n4. four",
    );
  });

  it("writes links and images, nested links as their text, destinations with spaces in angle brackets", () => {
    expect(markdown(`<p><a href="https://a.example/x">the <a href="https://b.example/">guide</a></a> <a href="https://a.example/x y">spaced</a> <a>bare</a></p>`)).toBe(
      "[the guide](https://a.example/x) [spaced](<https://a.example/x y>) bare",
    );
    expect(markdown(`<p><img src="https://i.example/p.png" alt="a  pic"><img alt="no source"></p>`)).toBe("![a pic](https://i.example/p.png)");
  });

  it("fences code with its language, longer than any backtick run inside", () => {
    expect(markdown(`<pre><code class="language-js">const a = 1;\n\nconsole.log(a);\n</code></pre>`)).toBe("```js\nconst a = 1;\n\nconsole.log(a);\n```");
    expect(markdown("<pre>a ```` b</pre>")).toBe("`````\na ```` b\n`````");
  });

  it("quotes blockquotes line by line and writes tables as GFM tables", () => {
    expect(markdown("<blockquote><p>quoted</p><p>more</p></blockquote>")).toBe("> quoted\n>\n> more");
    expect(markdown("<table><thead><tr><th>k</th><th>v</th></tr></thead><tbody><tr><td>a|b</td><td><b>bold</b></td></tr><tr><td>only</td></tr></tbody></table>")).toBe(
      "| k | v |\n| --- | --- |\n| a\\|b | **bold** |\n| only |  |",
    );
  });

  it("drops scripts, styles and comments, and keeps line breaks and rules", () => {
    expect(markdown("<p>a<br>b</p><script>SCRIPT</script><style>.x{}</style><!-- comment --><hr><template>T</template><p>c</p>")).toBe("a\nb\n\n---\n\nc");
  });
});
