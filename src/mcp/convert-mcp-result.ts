import type { ToolOutput } from "../types/index.js";

/** What a tool result may put into the context; the rest is cut with a note (a server is not trusted). */
export const defaultMaxResultCharacters = 50_000;

/**
 * Turns an MCP `tools/call` result into a ctxkit tool output: text as is, images and audio as a note
 * (the model gets no pixels through a tool message), embedded resources as their text or a note,
 * resource links as their URI, structured content as JSON when there is no text. Anything malformed
 * is reported as an error result rather than trusted. Bounded to `maxCharacters`.
 */
export function convertMcpResult(result: unknown, maxCharacters = defaultMaxResultCharacters): ToolOutput {
  if (result === null || typeof result !== "object") return malformed("the result is not an object");
  const record = result as Record<string, unknown>;
  const content = record.content;
  if (content !== undefined && !Array.isArray(content)) return malformed("'content' is not a list");
  const parts: string[] = [];
  let length = 0;
  for (const block of (content ?? []) as unknown[]) {
    const text = describeBlock(block);
    parts.push(text);
    length += text.length;
    // Stop reading a huge list early; the cut below says how much was left out.
    if (length > maxCharacters) break;
  }
  if (parts.length === 0 && record.structuredContent !== undefined) parts.push(safeJson(record.structuredContent));
  const text = parts.join("\n");
  const output: ToolOutput = { content: bound(text === "" ? "(the tool returned no content)" : text, maxCharacters) };
  return record.isError === true ? { ...output, isError: true, errorKind: "failed" } : output;
}

function describeBlock(block: unknown): string {
  if (block === null || typeof block !== "object") return "[malformed content block]";
  const item = block as Record<string, unknown>;
  switch (item.type) {
    case "text":
      return typeof item.text === "string" ? item.text : "[malformed text block]";
    case "image":
    case "audio":
      return `[${item.type}: ${typeof item.mimeType === "string" ? item.mimeType : "unknown type"}, ${decodedSize(item.data)} — not shown to the model]`;
    case "resource": {
      const resource = (item.resource ?? {}) as Record<string, unknown>;
      const uri = typeof resource.uri === "string" ? resource.uri : "(no uri)";
      if (typeof resource.text === "string") return `[resource ${uri}]\n${resource.text}`;
      const mime = typeof resource.mimeType === "string" ? `${resource.mimeType}, ` : "";
      return `[resource ${uri}: ${mime}${decodedSize(resource.blob)} of binary data — not shown to the model]`;
    }
    case "resource_link": {
      const uri = typeof item.uri === "string" ? item.uri : "(no uri)";
      const name = typeof item.name === "string" ? ` ${item.name}` : "";
      const description = typeof item.description === "string" ? ` — ${item.description}` : "";
      return `[resource link${name}: ${uri}${description}]`;
    }
    default:
      return `[content of type ${JSON.stringify(String(item.type)).slice(0, 40)} — not shown to the model]`;
  }
}

/** The size of base64 data in bytes, as a person reads it. */
function decodedSize(data: unknown): string {
  if (typeof data !== "string") return "size unknown";
  const bytes = Math.floor((data.replace(/=+$/, "").length * 3) / 4);
  return bytes < 1024 ? `${bytes} bytes` : `${(bytes / 1024).toFixed(1)} KiB`;
}

function bound(text: string, maxCharacters: number): string {
  if (text.length <= maxCharacters) return text;
  return `${text.slice(0, maxCharacters)}\n[… cut: the MCP result had ${text.length.toLocaleString("en-US")}+ characters; ${maxCharacters.toLocaleString("en-US")} are shown]`;
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? "null";
  } catch {
    return "[structured content that is not JSON]";
  }
}

function malformed(why: string): ToolOutput {
  return { content: `The MCP server sent a malformed result (${why}); nothing from it is shown.`, isError: true, errorKind: "failed" };
}
