import { positionNestedDeeperThan } from "../providers/shared/parse-untrusted-json.js";
import { describeAnswerTooLarge, megabytes } from "./describe-answer-too-large.js";

/** What the MCP SDK's stdio client transport asks of its read buffer (its own `ReadBuffer`'s methods). */
export interface StdioReadBuffer {
  append(chunk: Buffer): void;
  readMessage(): unknown;
  clear(): void;
}

export interface BoundedReadBufferOptions {
  /** Bytes one message (one line) may have; a longer one is skipped, not read. */
  maxMessageBytes: number;
  /** Levels of arrays and objects one message may nest; a deeper one is not parsed (recursive readers overflow). */
  maxNesting: number;
  /** Parses and checks one line (the SDK's `deserializeMessage`); throws on garbage. */
  parse: (line: string) => unknown;
}

/** Bytes of an over-long line kept from its start and its end: where its JSON-RPC id is. */
const keptEdgeBytes = 256;

type Line = { kind: "line"; bytes: Buffer } | { kind: "skipped"; size: number; head: string; tail: string };

/**
 * A stdio read buffer for MCP servers, in place of the SDK's: newlines are looked for in each new
 * chunk only, and a line is joined once when it ends (the SDK's buffer joins and searches the whole
 * pending line on every chunk, so a 9 MB answer took 6 s with the event loop blocked for 1 s at a time).
 * A line over `maxMessageBytes` is not kept: when it ends, it reads as a JSON-RPC error answer to the
 * request whose id it carried, so that call fails at once with the reason and the server stays
 * connected (the SDK's buffer threw at 10 MB, and its transport then ended the server: a filesystem
 * server asked for a 14 MB log was gone for the rest of the session).
 */
export function createBoundedReadBuffer(options: BoundedReadBufferOptions): StdioReadBuffer {
  const ready: Line[] = [];
  let parts: Buffer[] = [];
  let size = 0;
  // Set while the current line is over the limit: only its size, start and end are kept.
  let skipping: { size: number; head: string; tail: Buffer } | undefined;

  const addToLine = (piece: Buffer) => {
    if (piece.length === 0) return;
    if (skipping) {
      skipping.size += piece.length;
      skipping.tail = Buffer.concat([skipping.tail, piece]).subarray(-keptEdgeBytes);
      return;
    }
    parts.push(piece);
    size += piece.length;
    if (size > options.maxMessageBytes) {
      const joined = Buffer.concat(parts, size);
      skipping = { size, head: joined.subarray(0, keptEdgeBytes).toString("utf8"), tail: joined.subarray(-keptEdgeBytes) };
      parts = [];
      size = 0;
    }
  };
  const endLine = () => {
    if (skipping) ready.push({ kind: "skipped", size: skipping.size, head: skipping.head, tail: skipping.tail.toString("utf8") });
    else ready.push({ kind: "line", bytes: Buffer.concat(parts, size) });
    parts = [];
    size = 0;
    skipping = undefined;
  };

  return {
    append(chunk) {
      let start = 0;
      for (let newline = chunk.indexOf(10); newline !== -1; newline = chunk.indexOf(10, start)) {
        addToLine(chunk.subarray(start, newline));
        endLine();
        start = newline + 1;
      }
      addToLine(chunk.subarray(start));
    },
    readMessage() {
      const line = ready.shift();
      if (line === undefined) return null;
      if (line.kind === "skipped") return options.parse(JSON.stringify(errorAnswer(line, describeAnswerTooLarge(options.maxMessageBytes, line.size))));
      const text = line.bytes.toString("utf8").replace(/\r$/, "");
      if (positionNestedDeeperThan(text, options.maxNesting) !== undefined) {
        const edges = { size: line.bytes.length, head: text.slice(0, keptEdgeBytes), tail: text.slice(-keptEdgeBytes) };
        return options.parse(JSON.stringify(errorAnswer(edges, `the server's answer nests arrays and objects more than ${options.maxNesting} levels deep, which no real answer does, so it was not read`)));
      }
      return options.parse(text);
    },
    clear() {
      ready.length = 0;
      parts = [];
      size = 0;
      skipping = undefined;
    },
  };
}

/** The error answer standing for a line not read; without an id to answer, it is reported as an error (the SDK tells its onerror). */
function errorAnswer(line: { size: number; head: string; tail: string }, message: string): object {
  // The SDK's servers write the id last (`…,"jsonrpc":"2.0","id":7}`), others first (`{"jsonrpc":"2.0","id":7,…`).
  const id = /"id"\s*:\s*(\d{1,15}|"(?:[^"\\]|\\.){0,200}")\s*\}\s*$/.exec(line.tail)?.[1] ?? /^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*(\d{1,15}|"(?:[^"\\]|\\.){0,200}")/.exec(line.head)?.[1];
  if (id === undefined) throw new Error(`An MCP server sent a message of ${megabytes(line.size)} that was not read (${message}), without a request id ctxkit could find to answer.`);
  return { jsonrpc: "2.0", id: JSON.parse(id) as unknown, error: { code: -32603, message } };
}
