import { describe, expect, it } from "vitest";
import { createMarkdownStream } from "./markdown-stream.js";

function streamReply(chunks: string[], renderer?: null) {
  let written = "";
  const stream = renderer === null ? createMarkdownStream((text) => (written += text), 80, null) : createMarkdownStream((text) => (written += text), 80);
  for (const chunk of chunks) stream.push(chunk);
  stream.end();
  return written;
}

describe("a chat reply on a terminal", () => {
  it("ends on a new line without marked-terminal, so the prompt drawn next does not erase it", () => {
    expect(streamReply(["The folder has ", "**files**."], null)).toBe("The folder has **files**.\n");
    expect(streamReply(["Done.\n"], null)).toBe("Done.\n");
    expect(streamReply([], null)).toBe("");
  });

  it("ends on a new line when rendered with marked-terminal", () => {
    const written = streamReply(["The folder has ", "**files**."]);
    expect(written).toContain("files");
    expect(written.endsWith("\n")).toBe(true);
  });
});
