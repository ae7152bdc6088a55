import { mkdir, readFile, stat, writeFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { safeParseJson } from "../providers/shared/canonical-json.js";
import { maximumJsonNesting } from "../providers/shared/parse-untrusted-json.js";
import { useTempSessionStore, samplePrefix, userMessage } from "./test-support/session-test-data.js";

const store = useTempSessionStore();

const createdAt = "2026-11-30T04:15:02.118Z";

/** A valid session of header, prefix and `count` user messages; returns its lines (without newlines). */
async function writeSession(id: string, count: number): Promise<string[]> {
  const writer = await store.create({ id, createdAt, prefix: samplePrefix });
  for (let index = 0; index < count; index += 1) writer.appendMessage(userMessage(`m${index}`, `message ${index}`));
  await writer.close();
  return (await readFile(store.path(id), "utf8")).split("\n").slice(0, -1);
}

describe("loading a session file", () => {
  it("reports a torn last line as a warning and keeps every record before it", async () => {
    const lines = await writeSession("torn", 3);
    const torn = '{"type":"message","message":{"role":"user","content":"cut off 温';
    await writeFile(store.path("torn"), `${lines.join("\n")}\n${torn}`);

    const loaded = await store.load("torn");
    expect(loaded.messages.map((message) => message.meta.id)).toEqual(["m0", "m1", "m2"]);
    expect(loaded.warnings).toEqual([
      { code: "torn_last_line", line: 6, bytes: Buffer.byteLength(torn), message: expect.stringContaining("Line 6 of") },
    ]);
  });

  it("treats a torn line cut inside a multi-byte character as torn, counting raw bytes", async () => {
    const lines = await writeSession("bytes", 1);
    const torn = Buffer.concat([Buffer.from('{"type":"message","message":{"content":"'), Buffer.from("温").subarray(0, 2)]);
    await writeFile(store.path("bytes"), Buffer.concat([Buffer.from(`${lines.join("\n")}\n`), torn]));
    const loaded = await store.load("bytes");
    expect(loaded.warnings[0]).toMatchObject({ code: "torn_last_line", line: 4, bytes: torn.length });
  });

  it("repairs a torn tail on open without losing earlier lines, then appends after them", async () => {
    const lines = await writeSession("repair", 2);
    await writeFile(store.path("repair"), `${lines.join("\n")}\n{"type":"mess`);

    const writer = await store.open("repair");
    expect(writer.warnings).toEqual([expect.objectContaining({ code: "torn_last_line", line: 5, bytes: 13 })]);
    expect(await readFile(store.path("repair"), "utf8")).toBe(`${lines.join("\n")}\n`);
    writer.appendMessage(userMessage("m2", "after the crash"));
    await writer.close();

    const loaded = await store.load("repair");
    expect(loaded.messages.map((message) => message.meta.id)).toEqual(["m0", "m1", "m2"]);
    expect(loaded.warnings).toEqual([]);
  });

  it("keeps a complete last record whose newline is missing, and completes the line on open", async () => {
    const lines = await writeSession("unterminated", 2);
    await writeFile(store.path("unterminated"), lines.join("\n"));

    const loaded = await store.load("unterminated");
    expect(loaded.messages).toHaveLength(2);
    expect(loaded.warnings).toEqual([expect.objectContaining({ code: "unterminated_last_line", line: 4 })]);

    const writer = await store.open("unterminated");
    writer.appendMessage(userMessage("m2", "next"));
    await writer.close();
    expect((await store.load("unterminated")).messages).toHaveLength(3);
  });

  it("refuses a corrupt line in the middle, naming the file and line, and does not modify the file", async () => {
    const lines = await writeSession("middle", 3);
    lines[3] = '{"type":"message","message":{"role":"user"';
    const content = `${lines.join("\n")}\n`;
    await writeFile(store.path("middle"), content);
    const { mtimeMs } = await stat(store.path("middle"));

    for (const attempt of [() => store.load("middle"), () => store.open("middle")]) {
      await expect(attempt()).rejects.toMatchObject({
        code: "session_corrupt",
        message: expect.stringMatching(new RegExp(`${store.path("middle")} is corrupt at line 4: not valid JSON`)),
      });
    }
    expect(await readFile(store.path("middle"), "utf8")).toBe(content);
    expect((await stat(store.path("middle"))).mtimeMs).toBe(mtimeMs);
  });

  it("names the field of a record that parses but does not match its type", async () => {
    const lines = await writeSession("shape", 1);
    lines[2] = JSON.stringify({
      type: "message",
      message: { role: "assistant", content: [{ type: "thinking", thinking: "x", signature: 7 }], meta: { id: "a", origin: "model", createdAt } },
    });
    await writeFile(store.path("shape"), `${lines.join("\n")}\n`);
    await expect(store.load("shape")).rejects.toMatchObject({
      code: "session_corrupt",
      message: expect.stringContaining("line 3: message.content[0].signature: expected a string, got number"),
    });
  });

  it.each([
    ["a request before any prefix", ['{"type":"request","index":0,"messageCount":0,"tail":null,"provider":"p","model":"m","at":"t"}'], "before any prefix"],
    ["requests out of order", ["PREFIX", '{"type":"request","index":1,"messageCount":0,"tail":null,"provider":"p","model":"m","at":"t"}'], "expected 0"],
    ["a request sending unrecorded messages", ["PREFIX", '{"type":"request","index":0,"messageCount":1,"tail":null,"provider":"p","model":"m","at":"t"}'], "only 0"],
    ["an unknown record type", ["PREFIX", '{"type":"mystery"}'], 'expected one of "header"'],
    ["an empty line between records", ["PREFIX", "", "PREFIX"], "empty line"],
  ])("refuses %s", async (_name, records, reason) => {
    const lines = await writeSession("order", 0);
    const body = records.map((record) => (record === "PREFIX" ? lines[1] : record));
    await writeFile(store.path("order"), `${[lines[0], ...body].join("\n")}\n`);
    await expect(store.load("order")).rejects.toMatchObject({ code: "session_corrupt", message: expect.stringContaining(reason) });
  });

  it("refuses a newer format version and says to upgrade", async () => {
    const lines = await writeSession("future", 1);
    lines[0] = lines[0]?.replace('"version":4', '"version":5') ?? "";
    await writeFile(store.path("future"), `${lines.join("\n")}\n{"type":"something_new_in_v3"}\n`);
    await expect(store.load("future")).rejects.toMatchObject({
      code: "session_version_unsupported",
      message: expect.stringMatching(/version 5.*reads versions up to 4.*Upgrade ctxkit/),
    });
  });

  it("refuses a file of another format", async () => {
    await writeFile(store.path("other"), '{"type":"header","format":"claude-code","version":1}\n');
    await expect(store.load("other")).rejects.toMatchObject({ code: "session_version_unsupported", message: expect.stringContaining('"claude-code"') });
  });

  it("refuses an empty file and a file holding only a torn header", async () => {
    await writeFile(store.path("empty"), "");
    await expect(store.load("empty")).rejects.toMatchObject({ code: "session_corrupt", message: expect.stringContaining("empty") });
    await writeFile(store.path("half"), '{"type":"header","form');
    await expect(store.load("half")).rejects.toMatchObject({ code: "session_corrupt", message: expect.stringContaining("never fully created") });
  });

  // Node's own message named no path ("EISDIR: illegal operation on a directory, read"), and the CLI printed it as it was.
  it("refuses a folder where a session file should be, naming it, and lists it as unreadable", async () => {
    await mkdir(store.path("folder"));
    const refusal = { code: "session_corrupt", message: `${store.path("folder")} is a folder, not a session file. Move it out of the sessions folder to use this id.` };
    await expect(store.load("folder")).rejects.toMatchObject(refusal);
    await expect(store.remove("folder")).rejects.toMatchObject(refusal);
    await expect(store.open("folder")).rejects.toMatchObject(refusal);
  });

  it("loads back a tool call nested as deep as a model's arguments may be", async () => {
    const writer = await store.create({ id: "deep", createdAt, prefix: samplePrefix });
    // The deepest arguments tool-call parsing accepts; the session line wraps them in a few more levels.
    const depth = maximumJsonNesting;
    const argumentsText = `${"[".repeat(depth)}${"]".repeat(depth)}`;
    const parsed = safeParseJson(argumentsText);
    if (!parsed.success) throw new Error(parsed.error);
    const call = { role: "assistant" as const, content: [{ type: "tool_call" as const, id: "c1", name: "t", argumentsText, arguments: parsed.value }], meta: { id: "a1", origin: "model" as const, createdAt } };
    writer.appendMessage(call);
    await writer.close();
    const loaded = await store.load("deep");
    expect(loaded.messages.map((message) => message.meta.id)).toEqual(["a1"]);
  });
});
