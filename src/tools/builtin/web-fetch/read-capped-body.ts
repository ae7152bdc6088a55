import type { IncomingMessage } from "node:http";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";
import type { Readable } from "node:stream";
import { ToolError } from "../../tool.js";
import { nodeErrorCode } from "../../../types/node-error-code.js";

export interface CappedBody {
  bytes: Buffer;
  /** The body went on past the cap (reading stopped there, the connection was closed) or was cut off by the server. */
  truncated: boolean;
}

/**
 * Reads a response body, decompressed, up to `maxBytes`: the cap counts decompressed bytes, so a
 * small compressed bomb stops at the cap like an endless stream does. Reading beyond the cap is
 * never attempted; the response is destroyed instead.
 */
export async function readCappedBody(response: IncomingMessage, maxBytes: number, signal: AbortSignal): Promise<CappedBody> {
  const stream = decoded(response);
  const parts: Buffer[] = [];
  let size = 0;
  let truncated = false;
  try {
    for await (const part of stream as AsyncIterable<Buffer>) {
      const room = maxBytes - size;
      if (part.length > room) {
        parts.push(part.subarray(0, room));
        size += room;
        truncated = true;
        break;
      }
      parts.push(part);
      size += part.length;
    }
  } catch (error) {
    if (signal.aborted) throw error;
    if (isDecompressionError(error)) {
      throw new ToolError("failed", `The server sent a corrupt ${String(response.headers["content-encoding"])} body (${(error as Error).message}).`);
    }
    // The server closed the connection mid-body: keep what arrived, marked as cut.
    truncated = true;
  } finally {
    if (stream !== response) stream.destroy();
    response.destroy();
  }
  return { bytes: Buffer.concat(parts, size), truncated };
}

function decoded(response: IncomingMessage): Readable {
  const encoding = String(response.headers["content-encoding"] ?? "identity").trim().toLowerCase();
  if (encoding === "identity" || encoding === "") return response;
  const decompressor =
    encoding === "gzip" || encoding === "x-gzip"
      ? createGunzip()
      : encoding === "deflate"
        ? createInflate()
        : encoding === "br"
          ? createBrotliDecompress()
          : undefined;
  if (decompressor === undefined) {
    response.destroy();
    throw new ToolError("failed", `The server sent the body in an encoding web_fetch cannot read (${encoding}).`);
  }
  response.on("error", (error) => decompressor.destroy(error));
  return response.pipe(decompressor);
}

function isDecompressionError(error: unknown): boolean {
  return nodeErrorCode(error)?.startsWith("Z_") === true;
}
