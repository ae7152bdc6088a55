import { execFile } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { useTempSessionStore, samplePrefix, usageOf, userMessage } from "./test-support/session-test-data.js";
import { sealRecord } from "./record-checksum.js";

const store = useTempSessionStore();

const createdAt = "2026-11-30T04:15:02.118Z";
const request = { provider: "anthropic", model: "claude-sonnet-4-5", at: createdAt };

describe("session writer", () => {
  it("serialises concurrent flushes: no interleaved, lost or duplicated lines", async () => {
    const writer = await store.create({ id: "concurrent", createdAt, prefix: samplePrefix });
    const flushes: Promise<void>[] = [];
    for (let index = 0; index < 300; index += 1) {
      // Large bodies so unserialised writes would have a real chance to interleave.
      writer.appendMessage(userMessage(`m${index}`, `${index}:`.padEnd(20_000 + index, "x")));
      if (index % 7 === 0) flushes.push(writer.flush(), writer.flush());
    }
    flushes.push(writer.flush());
    await Promise.all(flushes);

    const loaded = await store.load("concurrent");
    expect(loaded.messages.map((message) => message.meta.id)).toEqual(Array.from({ length: 300 }, (_, index) => `m${index}`));
    expect((await readFile(store.path("concurrent"), "utf8")).split("\n")).toHaveLength(2 + 300 + 1);
    await writer.close();
  });

  it("has flushed records on disk before flush resolves, while the writer stays open", async () => {
    const writer = await store.create({ id: "durable", createdAt, prefix: samplePrefix });
    writer.appendMessage(userMessage("m1", "hello"));
    expect((await store.load("durable")).messages).toHaveLength(0); // appends are buffered
    await writer.flush();
    expect((await store.load("durable")).messages).toHaveLength(1);
    await writer.close();
  });

  it("numbers requests from 0 and records usage against them", async () => {
    const writer = await store.create({ id: "numbers", createdAt, prefix: samplePrefix });
    writer.appendMessage(userMessage("m1", "hello"));
    expect(writer.appendRequest({ messageCount: 1, ...request })).toBe(0);
    expect(writer.appendRequest({ messageCount: 1, tail: userMessage("t", "[status]", "harness"), ...request })).toBe(1);
    writer.appendUsage(1, usageOf(10, 2));
    await writer.close();
    const loaded = await store.load("numbers");
    expect(loaded.requests.map((record) => [record.index, record.tail?.content ?? null])).toEqual([
      [0, null],
      [1, "[status]"],
    ]);
    expect(loaded.usage[0]?.request).toBe(1);
  });

  it("refuses appends that would make the file unloadable, and writes nothing for them", async () => {
    const writer = await store.create({ id: "misuse", createdAt, prefix: samplePrefix });
    expect(() => writer.appendRequest({ messageCount: 1, ...request })).toThrow(/only 0 were appended/);
    expect(() => writer.appendUsage(0, usageOf(1, 1))).toThrow(/only 0 requests/);
    expect(() => writer.appendRunEnd({ runId: "r", stopReason: "final_answer", usage: usageOf(1, 1), iterations: 1, at: createdAt })).toThrow(
      /no open run_start/,
    );
    expect(() => writer.appendUsage(0, { ...usageOf(1, 1), inputTokens: Number.NaN })).toThrow();
    expect(() => writer.appendPrefix(samplePrefix, "")).toThrow(/needs a reason/);
    const broken = { role: "assistant", content: [{ type: "text" }], meta: { id: "x", origin: "model", createdAt } };
    expect(() => writer.appendMessage(broken as never)).toThrow(/message.content\[0\].text: expected a string/);
    await writer.close();
    const loaded = await store.load("misuse");
    expect([loaded.messages.length, loaded.requests.length, loaded.usage.length, loaded.prefixes.length]).toEqual([0, 0, 0, 1]);
  });

  it("rejects appends after close", async () => {
    const writer = await store.create({ id: "closed", createdAt, prefix: samplePrefix });
    await writer.close();
    await writer.close(); // idempotent
    expect(() => writer.appendMessage(userMessage("m1", "late"))).toThrow(expect.objectContaining({ code: "session_write_refused" }));
  });

  it("keeps every fsynced record when the writing process is killed mid-line", async () => {
    const writer = await store.create({ id: "crash", createdAt, prefix: samplePrefix });
    await writer.close();
    const recordCount = 25;
    const lines = Array.from({ length: recordCount }, (_, index) =>
      JSON.stringify(sealRecord({ type: "message", message: userMessage(`m${index}`, `record ${index} — 记录`) })),
    );
    const script = join(dirname(store.path("crash")), "crash-writer.mjs");
    // A stand-in for a writer process: append with fsync like SessionWriter.flush, then die mid-write.
    await writeFile(
      script,
      `import { openSync, writeSync, fsyncSync } from "node:fs";
const [file, linesJson] = process.argv.slice(2);
const descriptor = openSync(file, "a");
for (const line of JSON.parse(linesJson)) { writeSync(descriptor, line + "\\n"); fsyncSync(descriptor); }
writeSync(descriptor, '{"type":"message","message":{"role":"user","content":"half a rec');
process.kill(process.pid, "SIGKILL");
`,
    );
    const outcome = await promisify(execFile)(process.execPath, [script, store.path("crash"), JSON.stringify(lines)]).then(
      () => "exited",
      (error: { signal?: string }) => error.signal,
    );
    expect(outcome).toBe("SIGKILL");

    const loaded = await store.load("crash");
    expect(loaded.messages).toHaveLength(recordCount);
    expect(loaded.messages.at(-1)?.meta.id).toBe(`m${recordCount - 1}`);
    expect(loaded.warnings).toEqual([expect.objectContaining({ code: "torn_last_line", line: 2 + recordCount + 1 })]);

    const reopened = await store.open("crash");
    reopened.appendMessage(userMessage("after", "resumed"));
    await reopened.close();
    const resumed = await store.load("crash");
    expect(resumed.messages).toHaveLength(recordCount + 1);
    expect(resumed.warnings).toEqual([]);
  });
});
