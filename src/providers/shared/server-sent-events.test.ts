import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ProviderError } from "../../types/index.js";
import { defaultMaxEventCharacters, maxStreamCharactersFor, parseServerSentEvents, type ServerSentEvent } from "./server-sent-events.js";

const encoder = new TextEncoder();

async function* chunksOf(...texts: string[]): AsyncGenerator<Uint8Array> {
  for (const text of texts) yield encoder.encode(text);
}

async function parseAll(body: AsyncIterable<Uint8Array>, maxEventCharacters?: number): Promise<ServerSentEvent[]> {
  const events: ServerSentEvent[] = [];
  for await (const event of parseServerSentEvents(body, maxEventCharacters === undefined ? {} : { maxEventCharacters })) events.push(event);
  return events;
}

describe("parseServerSentEvents", () => {
  it("reads events, names, comments and multi-line data with LF, CRLF and CR line ends", async () => {
    const events = await parseAll(chunksOf(": keep-alive\n", "event: a\ndata: one\r\ndata:two\r\r", "data: three\n\ndata: last"));
    expect(events).toEqual([
      { event: "a", data: "one\ntwo" },
      { event: undefined, data: "three" },
      { event: undefined, data: "last" },
    ]);
  });

  it("reads a CRLF cut between chunks, also with an empty chunk between its halves, as one line end", async () => {
    async function* body(): AsyncGenerator<Uint8Array> {
      yield encoder.encode("data: x\r");
      yield new Uint8Array(0);
      yield encoder.encode("\ndata: y\r\n\r\n");
    }
    expect(await parseAll(body())).toEqual([{ event: undefined, data: "x\ny" }]);
    expect(await parseAll(chunksOf("data: a\r", "\ndata: b\r", "\n\r", "\n"))).toEqual([{ event: undefined, data: "a\nb" }]);
  });

  it("joins one data line delivered one byte at a time (bounded work per byte: no re-scan of the buffer)", async () => {
    // 300,000 one-byte chunks: re-searching the whole buffer on each made this ~4.5e10 character steps.
    const payload = "y".repeat(300_000);
    const text = `data: ${payload}\n\n`;
    async function* bytes(): AsyncGenerator<Uint8Array> {
      const all = encoder.encode(text);
      for (let index = 0; index < all.length; index += 1) yield all.subarray(index, index + 1);
    }
    const events = await parseAll(bytes());
    expect(events).toHaveLength(1);
    expect(events[0]!.data).toBe(payload);
  }, 20_000);

  it("refuses an event larger than the cap with provider_event_too_large, even before its line ends", async () => {
    const tooBig = parseAll(chunksOf("data: ", "z".repeat(600), "z".repeat(600)), 1_000);
    await expect(tooBig).rejects.toBeInstanceOf(ProviderError);
    await expect(parseAll(chunksOf("data: ", "z".repeat(1_200)), 1_000)).rejects.toMatchObject({ code: "provider_event_too_large" });
    // Many data lines add up to one event.
    const lines = Array.from({ length: 20 }, () => `data: ${"w".repeat(99)}\n`).join("");
    await expect(parseAll(chunksOf(lines, "\n"), 1_000)).rejects.toMatchObject({ code: "provider_event_too_large" });
    // The cap is per event: many events of the allowed size pass.
    const many = Array.from({ length: 50 }, () => `data: ${"v".repeat(500)}\n\n`).join("");
    expect(await parseAll(chunksOf(many), 1_000)).toHaveLength(50);
  });
});

// A server streaming small deltas without end grew the response until the process ran out of memory:
// each event was bounded, the stream was not.
describe("the bound on a whole stream", () => {
  async function* endless(): AsyncGenerator<Uint8Array> {
    const event = new TextEncoder().encode('data: {"choices":[{"index":0,"delta":{"content":"x"}}]}\n\n');
    // A turn of the event loop now and then, so a test timeout can end it if nothing else does.
    for (let sent = 1; ; sent++) {
      if (sent % 1_000 === 0) await new Promise((resolve) => setImmediate(resolve));
      yield event;
    }
  }

  it("refuses a stream past maxStreamCharacters with provider_event_too_large", async () => {
    let events = 0;
    const reading = (async () => {
      for await (const _event of parseServerSentEvents(endless(), { maxStreamCharacters: 100_000 })) events += 1;
    })();
    await expect(reading).rejects.toMatchObject({ code: "provider_event_too_large", message: expect.stringContaining("streamed more than 100000 characters in one response") });
    expect(events).toBeGreaterThan(1_000);
  });

  it("defaults to 1 Gi characters, or four events of the largest size allowed", () => {
    expect(maxStreamCharactersFor(defaultMaxEventCharacters)).toBe(1024 * 1024 * 1024);
    expect(maxStreamCharactersFor(1_000)).toBe(1024 * 1024 * 1024);
    expect(maxStreamCharactersFor(512 * 1024 * 1024)).toBe(2048 * 1024 * 1024);
  });

  // A 1M-token answer streamed a token an event, each event as long as in the recorded OpenRouter
  // stream (about 517 characters): some 520 M characters on the wire, which 256 Mi cut near half-way.
  it("holds twice a 1M-token answer streamed a token an event with a recorded server's envelope", () => {
    const recorded = readFileSync(new URL("../openai-compatible/fixtures/openrouter-claude-thinking-stream.sse", import.meta.url), "utf8");
    const events = recorded.split("\n\n").filter((event) => event.startsWith("data: {")).length;
    const wireFor1MTokens = 1_000_000 * (recorded.length / events);
    expect(wireFor1MTokens).toBeGreaterThan(256 * 1024 * 1024);
    expect(2 * wireFor1MTokens).toBeLessThan(maxStreamCharactersFor(defaultMaxEventCharacters));
  });
});
