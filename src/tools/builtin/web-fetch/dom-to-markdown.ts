/**
 * Markdown from an already parsed (and already cleaned) DOM tree. web_fetch parses every page with
 * linkedom to remove hidden text and extract the article; converting that same tree here, instead
 * of handing HTML to an HTML-to-Markdown package that parses it again with its own 9 MB DOM, keeps
 * the library's install small (issue 23). The output is CommonMark with GFM tables: ATX headings,
 * fenced code, `-` bullets, inline links, and the characters Markdown would read as syntax escaped.
 */

/** The part of a DOM node the conversion reads (linkedom's nodes have it; no DOM library types). */
export interface MarkdownSourceNode {
  readonly nodeType: number;
  readonly nodeName: string;
  readonly textContent: string | null;
  readonly childNodes: ArrayLike<MarkdownSourceNode>;
  getAttribute?(name: string): string | null;
}

const textNode = 3;
const elementNode = 1;
const dropped = new Set(["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE", "HEAD", "TITLE", "META", "LINK"]);
const blocks = new Set([
  "ADDRESS", "ARTICLE", "ASIDE", "BODY", "CENTER", "DD", "DETAILS", "DIALOG", "DIR", "DIV", "DL", "DT", "FIELDSET", "FIGCAPTION",
  "FIGURE", "FOOTER", "FORM", "HEADER", "HGROUP", "HTML", "MAIN", "MENU", "NAV", "OUTPUT", "P", "SECTION", "SUMMARY", "TBODY", "TFOOT", "THEAD",
]);

interface Context {
  /** Inside a link: a nested link keeps only its text (Markdown links do not nest). */
  inLink: boolean;
}

/** The Markdown of `root`'s content, with blank lines between blocks and no trailing spaces. */
export function domToMarkdown(root: MarkdownSourceNode): string {
  return children(root, { inLink: false })
    .replace(/[ \t]+\n/g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/**
 * A node's children, read once. linkedom builds `childNodes` afresh on every access by walking the
 * node's whole subtree, so indexing it in a loop was quadratic: a 200 KB page of flat paragraphs took
 * a minute (issue 24).
 */
function childList(node: MarkdownSourceNode): MarkdownSourceNode[] {
  return Array.from(node.childNodes);
}

function children(node: MarkdownSourceNode, context: Context): string {
  const parts: string[] = [];
  for (const child of childList(node)) parts.push(convert(child, context));
  return parts.join("");
}

function convert(node: MarkdownSourceNode, context: Context): string {
  if (node.nodeType === textNode) return escapeText((node.textContent ?? "").replace(/\s+/g, " "));
  if (node.nodeType !== elementNode) return ""; // comments, processing instructions
  const tag = node.nodeName.toUpperCase();
  if (dropped.has(tag)) return "";
  const attribute = (name: string): string => node.getAttribute?.(name)?.trim() ?? "";
  switch (tag) {
    case "H1": case "H2": case "H3": case "H4": case "H5": case "H6": {
      const text = oneLine(children(node, context));
      return text === "" ? "" : block(`${"#".repeat(Number(tag[1]))} ${text}`);
    }
    case "BR":
      return "\n";
    case "HR":
      return block("---");
    case "PRE":
      return block(fence(node));
    case "CODE":
      return inlineCode(node.textContent ?? "");
    case "BLOCKQUOTE": {
      const text = children(node, context).replace(/\n{3,}/g, "\n\n").trim();
      return text === "" ? "" : block(text.split("\n").map((line) => (line === "" ? ">" : `> ${line}`)).join("\n"));
    }
    case "UL": case "OL":
      return block(list(node, tag === "OL", context));
    case "LI": // an item outside a list
      return block(`- ${children(node, context).trim()}`);
    case "TABLE":
      return block(table(node, context));
    case "A": {
      const text = children(node, { inLink: true });
      const href = attribute("href");
      if (context.inLink || href === "" || text.trim() === "") return text;
      return `[${text.trim()}](${destination(href)})`;
    }
    case "IMG": {
      const src = attribute("src");
      return src === "" ? "" : `![${escapeText(attribute("alt").replace(/\s+/g, " "))}](${destination(src)})`;
    }
    case "STRONG": case "B":
      return delimit(children(node, context), "**");
    case "EM": case "I":
      return delimit(children(node, context), "_");
    default: {
      const content = children(node, context);
      return blocks.has(tag) ? block(content) : content;
    }
  }
}

function block(content: string): string {
  const trimmed = content.trim();
  return trimmed === "" ? "" : `\n\n${trimmed}\n\n`;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** `**text**` around the words, the surrounding spaces kept outside (`** x**` is no emphasis). */
function delimit(content: string, delimiter: string): string {
  const match = /^(\s*)([\s\S]*?)(\s*)$/.exec(content)!;
  return match[2] === "" ? content : `${match[1]}${delimiter}${match[2]}${delimiter}${match[3]}`;
}

function list(node: MarkdownSourceNode, ordered: boolean, context: Context): string {
  const start = Number.parseInt(node.getAttribute?.("start") ?? "", 10);
  let number = Number.isFinite(start) ? start : 1;
  const items: string[] = [];
  for (const child of childList(node)) {
    if (child.nodeType !== elementNode || child.nodeName.toUpperCase() !== "LI") continue;
    const marker = ordered ? `${number++}. ` : "- ";
    // An item's paragraphs and nested lists stay inside it: every line after the first is indented under its marker.
    const content = children(child, context).replace(/\n{2,}/g, "\n").trim();
    items.push(marker + content.split("\n").join(`\n${" ".repeat(marker.length)}`));
  }
  return items.join("\n");
}

function table(node: MarkdownSourceNode, context: Context): string {
  const rows: string[][] = [];
  const collect = (parent: MarkdownSourceNode): void => {
    for (const child of childList(parent)) {
      if (child.nodeType !== elementNode) continue;
      const tag = child.nodeName.toUpperCase();
      if (tag === "TR") rows.push(cells(child, context));
      else if (tag === "THEAD" || tag === "TBODY" || tag === "TFOOT") collect(child);
    }
  };
  collect(node);
  const width = Math.max(0, ...rows.map((row) => row.length));
  if (width === 0) return children(node, context);
  const line = (row: string[]): string => `| ${Array.from({ length: width }, (_, index) => row[index] ?? "").join(" | ")} |`;
  return [line(rows[0]!), line(Array.from({ length: width }, () => "---")), ...rows.slice(1).map(line)].join("\n");
}

function cells(row: MarkdownSourceNode, context: Context): string[] {
  const found: string[] = [];
  for (const cell of childList(row)) {
    const tag = cell.nodeName.toUpperCase();
    if (cell.nodeType === elementNode && (tag === "TD" || tag === "TH")) found.push(oneLine(children(cell, context)).replaceAll("|", "\\|"));
  }
  return found;
}

/** A fenced block longer than any backtick run inside it, with the language a `language-x` class names. */
function fence(node: MarkdownSourceNode): string {
  const code = firstElement(node, "CODE");
  const language = /(?:^|\s)(?:language|lang)-([\w+#.-]+)/.exec(code?.getAttribute?.("class") ?? "")?.[1] ?? "";
  const text = (node.textContent ?? "").replace(/\n$/, "");
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((run) => run[0].length));
  const marks = "`".repeat(longest + 1);
  return `${marks}${language}\n${text}\n${marks}`;
}

function firstElement(node: MarkdownSourceNode, tag: string): MarkdownSourceNode | undefined {
  return childList(node).find((child) => child.nodeType === elementNode && child.nodeName.toUpperCase() === tag);
}

function inlineCode(raw: string): string {
  const text = raw.replace(/\s+/g, " ");
  if (text.trim() === "") return text;
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((run) => run[0].length));
  const marks = "`".repeat(longest + 1);
  const pad = text.startsWith("`") || text.endsWith("`") ? " " : "";
  return `${marks}${pad}${text}${pad}${marks}`;
}

/** A link or image destination: in angle brackets when it holds spaces or parentheses. */
function destination(url: string): string {
  return /[\s()<>]/.test(url) ? `<${url.replaceAll("<", "%3C").replaceAll(">", "%3E")}>` : url;
}

/** Text as text: the characters Markdown reads as syntax, anywhere or at the start of a line, escaped. */
function escapeText(text: string): string {
  return text
    .replace(/[\\`*_[\]]/g, "\\$&")
    .replace(/^(\s*)([#>+]|-+|=+)(?=\s|$)/, "$1\\$2")
    .replace(/^(\s*\d+)\.(?=\s)/, "$1\\.");
}
