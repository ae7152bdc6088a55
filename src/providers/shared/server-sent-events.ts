/** One event of a `text/event-stream` body (https://html.spec.whatwg.org/multipage/server-sent-events.html). */
export interface ServerSentEvent {
  event?: string;
  data: string;
}

/**
 * Parses an SSE byte stream into events. Handles CRLF, multi-line `data:` fields, comments
 * (`: keep-alive`, which OpenRouter sends) and a final event without a trailing blank line.
 */
export async function* parseServerSentEvents(body: AsyncIterable<Uint8Array>): AsyncGenerator<ServerSentEvent> {
  const decoder = new TextDecoder();
  let buffer = "";
  let eventName: string | undefined;
  let dataLines: string[] = [];

  function* flushLine(line: string): Generator<ServerSentEvent> {
    if (line === "") {
      if (dataLines.length > 0) yield { event: eventName, data: dataLines.join("\n") };
      eventName = undefined;
      dataLines = [];
      return;
    }
    if (line.startsWith(":")) return;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") dataLines.push(value);
    else if (field === "event") eventName = value;
  }

  for await (const chunk of body) {
    buffer += decoder.decode(chunk, { stream: true });
    let newline: number;
    while ((newline = buffer.search(/\r\n|\n|\r/)) !== -1) {
      // A "\r" at the end of the buffer may be the first half of a CRLF cut between two chunks;
      // read as a line end of its own, the "\n" that follows would end the event early.
      if (newline === buffer.length - 1 && buffer.endsWith("\r")) break;
      const line = buffer.slice(0, newline);
      const separatorLength = buffer.startsWith("\r\n", newline) ? 2 : 1;
      buffer = buffer.slice(newline + separatorLength);
      yield* flushLine(line);
    }
  }
  buffer += decoder.decode();
  if (buffer.endsWith("\r")) buffer = buffer.slice(0, -1);
  if (buffer !== "") yield* flushLine(buffer);
  yield* flushLine("");
}
