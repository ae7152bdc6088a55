import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isOtlpTraceFile, linkTraceToRuns, parseOtlpTraceText, readOtlpTraceFile } from "./otlp-trace-file.js";

const traceId = "5b8efff798038103d269b633813fc60c";
const span = (spanId: string, name: string, startMs: number, endMs: number, extra: Record<string, unknown> = {}) => ({
  traceId,
  spanId,
  name,
  kind: 1,
  startTimeUnixNano: String(1_767_225_600_000_000_000n + BigInt(startMs) * 1_000_000n),
  endTimeUnixNano: String(1_767_225_600_000_000_000n + BigInt(endMs) * 1_000_000n),
  status: {},
  ...extra,
});
const request = (spans: unknown[]) => ({
  resourceSpans: [{ resource: { attributes: [{ key: "service.name", value: { stringValue: "ctxkit" } }] }, scopeSpans: [{ scope: { name: "ctxkit" }, spans }] }],
});
const chat = (spanId: string, startMs: number, conversation: string) =>
  span(spanId, "chat gpt-4.1", startMs, startMs + 5, {
    parentSpanId: "eee19b7ec3c1b174",
    kind: 3,
    attributes: [
      { key: "gen_ai.operation.name", value: { stringValue: "chat" } },
      { key: "gen_ai.conversation.id", value: { stringValue: conversation } },
      { key: "gen_ai.usage.input_tokens", value: { intValue: "3624" } },
      { key: "gen_ai.request.temperature", value: { doubleValue: 0.25 } },
      { key: "ctxkit.cache_break", value: { boolValue: false } },
      { key: "gen_ai.response.finish_reasons", value: { arrayValue: { values: [{ stringValue: "stop" }] } } },
    ],
  });

describe("OTLP JSON trace files", () => {
  it("reads the file exporter's JSON lines: spans with timings from the first start, typed attributes, the service", () => {
    const lines = [JSON.stringify(request([chat("aaaaaaaaaaaaaaa1", 10, "s1")])), JSON.stringify(request([span("eee19b7ec3c1b174", "invoke_agent ctxkit", 0, 40)]))].join("\n");
    const view = parseOtlpTraceText(`${lines}\n`, "trace.jsonl");
    expect(view.problems).toEqual([]);
    expect(view.spans.map((item) => [item.name, item.startMs, item.durationMs, item.parentSpanId])).toEqual([
      ["invoke_agent ctxkit", 0, 40, ""],
      ["chat gpt-4.1", 10, 5, "eee19b7ec3c1b174"],
    ]);
    expect(view.spans[1]!.attributes).toEqual({
      "gen_ai.operation.name": "chat",
      "gen_ai.conversation.id": "s1",
      "gen_ai.usage.input_tokens": 3624,
      "gen_ai.request.temperature": 0.25,
      "ctxkit.cache_break": false,
      "gen_ai.response.finish_reasons": ["stop"],
    });
    expect(view.spans[1]!).toMatchObject({ service: "ctxkit", kind: 3, traceId });
  });

  it("reads one export request as a whole (pretty-printed) document, and base64 ids", () => {
    const id = Buffer.from("eee19b7ec3c1b174", "hex").toString("base64");
    const view = parseOtlpTraceText(JSON.stringify(request([{ ...span("x", "root", 0, 1), spanId: id, traceId: Buffer.from(traceId, "hex").toString("base64") }]), null, 2), "t.json");
    expect(view.spans.map((item) => [item.spanId, item.traceId])).toEqual([["eee19b7ec3c1b174", traceId]]);
  });

  it("skips and names what is not a span (hostile input), keeping the rest", () => {
    const goodAttributes: unknown[] = [{ key: "__proto__", value: { stringValue: "x" } }, { key: "big", value: { stringValue: "y".repeat(100) } }];
    const good = span("aaaaaaaaaaaaaaa1", "ok", 0, 1);
    const deep = { key: "deep", value: {} as Record<string, unknown> };
    let cursor = deep.value;
    for (let level = 0; level < 50; level++) {
      const next: Record<string, unknown> = {};
      cursor.arrayValue = { values: [next] };
      cursor = next;
    }
    const text = [
      "not json",
      JSON.stringify({ hello: "world" }),
      JSON.stringify(request([{ ...good, attributes: [...goodAttributes, deep] }, span("short", "bad id", 0, 1), { ...span("aaaaaaaaaaaaaaa2", "no time", 0, 1), startTimeUnixNano: "-5" }, "a string"])),
    ].join("\n");
    const view = parseOtlpTraceText(text, "t.jsonl", { maxStringChars: 10 });
    expect(view.spans.map((item) => item.name)).toEqual(["ok"]);
    expect(view.spans[0]!.attributes.big).toBe("yyyyyyyyyy… (100 characters)");
    expect(Object.hasOwn(view.spans[0]!.attributes, "__proto__")).toBe(false);
    expect(JSON.stringify(view.spans[0]!.attributes.deep).length).toBeLessThan(200);
    expect(view.problems).toEqual([
      expect.stringMatching(/^line 1: not JSON/),
      "line 2: no resourceSpans array: not an OTLP JSON trace export",
      "line 3: a span without a valid spanId (16 hex digits)",
      "line 3: span aaaaaaaaaaaaaaa2 has no valid start or end time",
      "line 3: a span that is not an object",
    ]);
    expect(parseOtlpTraceText("", "empty").problems).toEqual(["the file is empty"]);
  });

  it("refuses a file over the size bound with a message that says what to do, and tells trace files from transcripts", async () => {
    const folder = await mkdtemp(join(tmpdir(), "ctxkit-trace-file-"));
    const trace = join(folder, "trace.jsonl");
    await writeFile(trace, `${JSON.stringify(request([span("aaaaaaaaaaaaaaa1", "a", 0, 1)]))}\n`);
    const session = join(folder, "session.jsonl");
    await writeFile(session, `${JSON.stringify({ type: "header", version: 3 })}\n`);
    expect(await isOtlpTraceFile(trace)).toBe(true);
    expect(await isOtlpTraceFile(session)).toBe(false);
    await expect(readOtlpTraceFile(trace, { maxBytes: 10 })).rejects.toThrow(/trace files over 0 MB are not read/);
    expect((await readOtlpTraceFile(trace)).spans).toHaveLength(1);
  });

  it("links the n-th chat span of a conversation to call n of the session with that id", () => {
    const view = parseOtlpTraceText(JSON.stringify(request([chat("aaaaaaaaaaaaaaa1", 10, "s1"), chat("aaaaaaaaaaaaaaa2", 20, "child"), chat("aaaaaaaaaaaaaaa3", 30, "s1"), chat("aaaaaaaaaaaaaaa4", 40, "s1")])), "t");
    const [linked] = linkTraceToRuns([view], [{ id: "other", calls: 3 }, { id: "s1", calls: 2 }]);
    expect(linked!.spans.map((item) => item.call)).toEqual([{ run: 1, call: 0 }, undefined, { run: 1, call: 1 }, undefined]);
    // The view itself is unchanged: links are derived per request (the runs can grow).
    expect(view.spans.every((item) => item.call === undefined)).toBe(true);
  });
});
