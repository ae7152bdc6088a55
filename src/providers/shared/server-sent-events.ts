import { ConfigError, ProviderError } from "../../types/index.js";

/** One event of a `text/event-stream` body (https://html.spec.whatwg.org/multipage/server-sent-events.html). */
export interface ServerSentEvent {
  event?: string;
  data: string;
}

export interface ServerSentEventOptions {
  /**
   * The most characters one event (its data lines, or one unfinished line) may hold before the
   * stream is refused with `provider_event_too_large`. The server controls event sizes, so an
   * unbounded one would be unbounded memory.
   */
  maxEventCharacters?: number;
  /**
   * The most characters the whole stream may hold (default `maxStreamCharactersFor(maxEventCharacters)`, 1 Gi): a server
   * that streams small deltas without end would otherwise grow the response until the process runs
   * out of memory.
   */
  maxStreamCharacters?: number;
}

/** Far above any real delta (a whole 1M-token answer in one event is ~4 M characters). */
export const defaultMaxEventCharacters = 64 * 1024 * 1024;

/**
 * Checks a provider's `maxEventCharacters` option: the most characters one server-sent event
 * may hold (default 64 Mi); a larger one ends the call with `provider_event_too_large`.
 */
export function resolveMaxEventCharacters(value: unknown, label: string): number {
  if (value === undefined) return defaultMaxEventCharacters;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 1) {
    throw new ConfigError("option_invalid", `${label}: \`maxEventCharacters\` must be a whole number of characters above 0 (default ${defaultMaxEventCharacters}), got ${JSON.stringify(value)}.`);
  }
  return value;
}

/**
 * A whole stream's bound: 1 Gi characters, or 4 events of the largest size allowed if that is more.
 * It counts the wire, not the answer: servers that stream a token an event wrap each in 90 to 520
 * characters of JSON (the recorded fixtures: Mistral 86 a token, llama-server 143, OpenRouter up to
 * 517 an event), so a 1M-token answer is up to some 520 M characters on the wire. The bound leaves
 * twice that; 256 Mi cut such an answer near half-way.
 */
export function maxStreamCharactersFor(maxEventCharacters: number): number {
  return Math.max(16 * defaultMaxEventCharacters, 4 * maxEventCharacters);
}

const lineEnd = /\r\n|\r|\n/g;

/**
 * Parses an SSE byte stream into events. Handles CRLF, multi-line `data:` fields, comments
 * (`: keep-alive`, which OpenRouter sends) and a final event without a trailing blank line.
 *
 * Linear in the body: each chunk is scanned once from where the last line ended, and an
 * unfinished line is kept as a list of pieces, never searched again (re-searching the whole
 * buffer per chunk made a 10 MB event take seconds).
 */
export async function* parseServerSentEvents(
  body: AsyncIterable<Uint8Array>,
  options: ServerSentEventOptions = {},
): AsyncGenerator<ServerSentEvent> {
  const limit = options.maxEventCharacters ?? defaultMaxEventCharacters;
  const streamLimit = options.maxStreamCharacters ?? maxStreamCharactersFor(limit);
  let streamLength = 0;
  const decoder = new TextDecoder();
  let linePieces: string[] = [];
  let lineLength = 0;
  let eventName: string | undefined;
  let dataLines: string[] = [];
  let dataLength = 0;
  // The previous chunk ended in "\r": a "\n" that starts the next one is the second half of that CRLF.
  let afterCarriageReturn = false;

  function checkSize(): void {
    if (dataLength + lineLength <= limit) return;
    throw new ProviderError(
      "provider_event_too_large",
      `The server sent one server-sent event of more than ${limit} characters, which is refused to bound memory. ` +
        "Check that the base URL points at a real model server, or raise the provider's `maxEventCharacters` option " +
        "(e.g. createOpenAICompatible({ …, maxEventCharacters: 256 * 1024 * 1024 })) if such events are expected.",
    );
  }

  function* flushLine(line: string): Generator<ServerSentEvent> {
    if (line === "") {
      if (dataLines.length > 0) yield { event: eventName, data: dataLines.join("\n") };
      eventName = undefined;
      dataLines = [];
      dataLength = 0;
      return;
    }
    if (line.startsWith(":")) return;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") {
      dataLines.push(value);
      dataLength += value.length + 1;
    } else if (field === "event") eventName = value;
  }

  function takeLine(lastPiece: string): string {
    linePieces.push(lastPiece);
    const line = linePieces.length === 1 ? lastPiece : linePieces.join("");
    linePieces = [];
    lineLength = 0;
    return line;
  }

  function* consume(text: string): Generator<ServerSentEvent> {
    if (text === "") return;
    let start = 0;
    if (afterCarriageReturn && text.startsWith("\n")) start = 1;
    afterCarriageReturn = false;
    lineEnd.lastIndex = start;
    let match: RegExpExecArray | null;
    while ((match = lineEnd.exec(text)) !== null) {
      const line = takeLine(text.slice(start, match.index));
      start = match.index + match[0].length;
      if (match[0] === "\r" && start === text.length) afterCarriageReturn = true;
      yield* flushLine(line);
      checkSize();
      lineEnd.lastIndex = start;
    }
    if (start < text.length) {
      const rest = text.slice(start);
      linePieces.push(rest);
      lineLength += rest.length;
      checkSize();
    }
  }

  for await (const chunk of body) {
    const text = decoder.decode(chunk, { stream: true });
    // Checked after the chunk's events, so one event too large is named as such first.
    yield* consume(text);
    streamLength += text.length;
    if (streamLength > streamLimit) {
      throw new ProviderError(
        "provider_event_too_large",
        `The server streamed more than ${streamLimit} characters in one response, which is refused to bound memory (a real answer is shorter: ` +
          "a 1M-token answer streamed a token an event is some 100 to 520 M characters with its JSON). Check that the base URL points at a real model server, or raise the provider's `maxEventCharacters` option " +
          "(a response may hold 4 times as many characters, and at least 1 Gi).",
      );
    }
  }
  yield* consume(decoder.decode());
  if (linePieces.length > 0) yield* flushLine(takeLine(""));
  yield* flushLine("");
}
