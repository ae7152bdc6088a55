import { readFile, writeFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { useTempSessionStore, samplePrefix, userMessage } from "./test-support/session-test-data.js";

const store = useTempSessionStore();

async function writeSession(id: string): Promise<string> {
  const writer = await store.create({ id, createdAt: "2026-11-30T04:15:02.118Z", prefix: samplePrefix });
  for (let index = 0; index < 3; index += 1) writer.appendMessage(userMessage(`m${index}`, `message ${index}`));
  await writer.close();
  return readFile(store.path(id), "utf8");
}

// The outside battery of issue 30 (item 1): a file with CRLF line endings or a byte-order mark
// (an editor's save, git's autocrlf) loaded with no warning at all; ctxkit writes neither.
describe("a session file rewritten by another program", () => {
  it("names CRLF line endings, from their first line, and keeps the records", async () => {
    const text = await writeSession("crlf");
    await writeFile(store.path("crlf"), text.replaceAll("\n", "\r\n"));
    const loaded = await store.load("crlf");
    expect(loaded.messages.map((message) => message.meta.id)).toEqual(["m0", "m1", "m2"]);
    expect(loaded.warnings).toEqual([expect.objectContaining({ code: "record_edited", line: 1 })]);
    expect(loaded.warnings[0]!.message).toMatch(/ends with a carriage return \(it and 4 other lines\).*edited or rewritten by another program/);
  });

  it("names a byte-order mark and keeps the records", async () => {
    const text = await writeSession("bom");
    await writeFile(store.path("bom"), `\ufeff${text}`);
    const loaded = await store.load("bom");
    expect(loaded.messages.map((message) => message.meta.id)).toEqual(["m0", "m1", "m2"]);
    expect(loaded.warnings).toEqual([expect.objectContaining({ code: "record_edited", line: 1 })]);
    expect(loaded.warnings[0]!.message).toContain("starts with a byte-order mark");
  });

  it("names one carriage return inside the file by its line", async () => {
    const lines = (await writeSession("one-cr")).split("\n");
    lines[3] = `${lines[3]}\r`;
    await writeFile(store.path("one-cr"), lines.join("\n"));
    const loaded = await store.load("one-cr");
    expect(loaded.warnings).toEqual([expect.objectContaining({ code: "record_edited", line: 4 })]);
    expect(loaded.warnings[0]!.message).toContain("(it)");
  });

  it("says nothing of a file as ctxkit wrote it", async () => {
    await writeSession("plain");
    expect((await store.load("plain")).warnings).toEqual([]);
  });
});
