import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ReadBuffer, deserializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
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

/** What a buffer gives for a byte stream cut into the chunks given: each message, or the error a line raised. */
function framesOf(buffer: { append(chunk: Buffer): void; readMessage(): unknown }, chunks: readonly Buffer[]): unknown[] {
  const frames: unknown[] = [];
  for (const chunk of chunks) {
    buffer.append(chunk);
    while (true) {
      try {
        const message = buffer.readMessage();
        if (message === null) break;
        frames.push(message);
      } catch (error) {
        frames.push({ threw: error instanceof SyntaxError ? "SyntaxError" : (error as Error).name });
      }
    }
  }
  return frames;
}

describe("createBoundedReadBuffer frames a stream as the MCP SDK's ReadBuffer does", () => {
  // Newline-delimited JSON: LF and CRLF endings, a blank line (garbage to both), a line the SDK's schema
  // refuses, and 2-, 3- and 4-byte characters, cut at every byte (inside a character, between CR and LF).
  const stream = Buffer.from(
    [
      '{"jsonrpc":"2.0","id":1,"result":{"text":"café ünïcödé"}}\n',
      '{"jsonrpc":"2.0","id":"b","result":{"text":"日本語のテキスト"}}\r\n',
      "\n",
      '{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"😀🎉 emoji 𝄞"}}\n',
      '{"not":"json-rpc"}\n',
      '{"jsonrpc":"2.0","id":3,"result":{"text":"end\\r\\n"}}\r\n',
      '{"jsonrpc":"2.0","id":4,"result":{}}',
    ].join(""),
  );
  const ours = () => createBoundedReadBuffer({ maxMessageBytes: 1_000_000, maxNesting: 64, parse: deserializeMessage });

  it("for the whole stream at once and cut into two at every byte", () => {
    const expected = framesOf(new ReadBuffer(), [stream]);
    expect(expected.filter((frame) => typeof frame === "object" && frame !== null && "jsonrpc" in frame)).toHaveLength(4);
    expect(framesOf(ours(), [stream])).toEqual(expected);
    for (let cut = 1; cut < stream.length; cut += 1) {
      const chunks = [stream.subarray(0, cut), stream.subarray(cut)];
      expect(framesOf(ours(), chunks), `cut at byte ${cut}`).toEqual(framesOf(new ReadBuffer(), chunks));
    }
  });

  it("fed one byte at a time", () => {
    const bytes = [...stream].map((byte) => Buffer.from([byte]));
    expect(framesOf(ours(), bytes)).toEqual(framesOf(new ReadBuffer(), bytes));
  });

  it("replaces a field the SDK still has: if this fails, the SDK renamed its stdio read buffer and connectMcpServer would silently keep the SDK's (quadratic, ending the server at 10 MB)", () => {
    const transport = new StdioClientTransport({ command: process.execPath });
    const field = (transport as unknown as { _readBuffer?: Record<string, unknown> })._readBuffer;
    expect(field).toBeInstanceOf(ReadBuffer);
    for (const method of ["append", "readMessage", "clear"]) expect(typeof field![method]).toBe("function");
  });
});
