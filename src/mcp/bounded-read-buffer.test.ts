import { describe, expect, it } from "vitest";
import { createBoundedReadBuffer } from "./bounded-read-buffer.js";

const parse = (line: string) => JSON.parse(line) as unknown;

function readAll(buffer: ReturnType<typeof createBoundedReadBuffer>): unknown[] {
  const messages: unknown[] = [];
  for (let message = buffer.readMessage(); message !== null; message = buffer.readMessage()) messages.push(message);
  return messages;
}

describe("createBoundedReadBuffer", () => {
  it("splits lines across and within chunks, with CRLF endings", () => {
    const buffer = createBoundedReadBuffer({ maxMessageBytes: 1000, maxNesting: 20, parse });
    buffer.append(Buffer.from('{"id":1}\n{"id"'));
    expect(readAll(buffer)).toEqual([{ id: 1 }]);
    buffer.append(Buffer.from(':2}\r\n{"id":3}\n'));
    expect(readAll(buffer)).toEqual([{ id: 2 }, { id: 3 }]);
  });

  it("answers a line over the limit as an error for its request, whether the id comes first or last, and reads the next line", () => {
    const buffer = createBoundedReadBuffer({ maxMessageBytes: 100, maxNesting: 20, parse });
    const text = "y".repeat(5000);
    const last = `{"result":{"content":[{"type":"text","text":"${text}"}]},"jsonrpc":"2.0","id":7}\n`;
    for (let start = 0; start < last.length; start += 64) buffer.append(Buffer.from(last.slice(start, start + 64)));
    buffer.append(Buffer.from(`{"jsonrpc":"2.0","id":"call-8","result":{"text":"${text}"}}\n{"jsonrpc":"2.0","id":9,"result":{}}\n`));
    const [seven, eight, nine] = readAll(buffer) as Array<{ id: unknown; error?: { code: number; message: string } }>;
    expect(seven).toMatchObject({ jsonrpc: "2.0", id: 7, error: { code: -32603 } });
    expect(seven!.error!.message).toMatch(/^the server's answer has 0\.0 MB, more than the 0\.0 MB ctxkit reads from an MCP server, so it was not read; for a tool call, ask the tool for less/);
    expect(eight).toMatchObject({ id: "call-8", error: { code: -32603 } });
    expect(nine).toEqual({ jsonrpc: "2.0", id: 9, result: {} });
  });

  it("reports an over-long line with no id it can answer as an error, and goes on", () => {
    const buffer = createBoundedReadBuffer({ maxMessageBytes: 100, maxNesting: 20, parse });
    buffer.append(Buffer.from(`{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"${"z".repeat(500)}"}}\n{"id":1}\n`));
    expect(() => buffer.readMessage()).toThrow(/was not read .* without a request id ctxkit could find to answer/);
    expect(buffer.readMessage()).toEqual({ id: 1 });
  });

  it("answers a line nested deeper than the limit as an error for its request, without parsing it", () => {
    const buffer = createBoundedReadBuffer({ maxMessageBytes: 100_000, maxNesting: 20, parse });
    const deep = `${"[".repeat(5000)}${"]".repeat(5000)}`;
    buffer.append(Buffer.from(`{"result":{"tools":[{"name":"deep","inputSchema":${deep}}]},"jsonrpc":"2.0","id":4}\n{"id":5,"result":[[["fine"]]]}\n`));
    expect(readAll(buffer)).toEqual([
      { jsonrpc: "2.0", id: 4, error: { code: -32603, message: "the server's answer nests arrays and objects more than 20 levels deep, which no real answer does, so it was not read" } },
      { id: 5, result: [[["fine"]]] },
    ]);
  });
});
