import type { IncomingMessage } from "node:http";
import { ToolError } from "../../tool.js";
import type { AddressPolicy } from "./blocked-address.js";
import { checkFetchUrl } from "./check-fetch-url.js";
import { contentKindOf, contradictsTextHeader, mediaTypeOf, sniffContentKind, type ContentKind } from "./content-kind.js";
import type { HostResolver } from "./host-resolver.js";
import { readCappedBody } from "./read-capped-body.js";
import { requestPinned } from "./request-pinned.js";
import { resolveCheckedAddress } from "./resolve-checked-address.js";
import { nodeErrorCode } from "../../../types/node-error-code.js";

export interface FetchPageOptions extends AddressPolicy {
  resolver: HostResolver;
  /** Most body bytes read (decompressed); the rest is never downloaded. */
  maxBytes: number;
  /** Redirects followed before giving up. */
  maxRedirects: number;
  signal: AbortSignal;
}

/** A response web_fetch read: where it ended up, what it is, and its body (possibly cut at the cap). */
export interface FetchedPage {
  url: string;
  /** Every URL before `url`, in order, when the server redirected. */
  redirectedFrom: string[];
  status: number;
  contentType: string;
  kind: ContentKind;
  bytes: Buffer;
  truncated: boolean;
}

const redirectStatuses = new Set([301, 302, 303, 307, 308]);

/**
 * GETs `address`, following redirects by hand: every hop is parsed, resolved and checked like the
 * first, so a public page cannot redirect into a private network. Binary bodies are refused from
 * their headers, before they are downloaded. Throws ToolErrors (data for the model).
 */
export async function fetchPage(address: string, options: FetchPageOptions): Promise<FetchedPage> {
  const visited: string[] = [];
  let target = checkFetchUrl(address);
  for (;;) {
    if (visited.includes(target.url.href)) {
      throw new ToolError("failed", `The server redirects in a loop: ${[...visited, target.url.href].join(" → ")}.`);
    }
    if (visited.length > options.maxRedirects) {
      throw new ToolError("failed", `More than ${options.maxRedirects} redirects, starting at ${visited[0]}; web_fetch stopped at ${target.url.href}.`);
    }
    visited.push(target.url.href);
    const pinned = await resolveCheckedAddress(target, options.resolver, options, options.signal);
    const response = await send(target.url, pinned, options.signal);
    const status = response.statusCode ?? 0;
    const location = response.headers.location;
    if (redirectStatuses.has(status) && location !== undefined) {
      response.destroy();
      target = checkFetchUrl(location, target.url);
      continue;
    }
    return await readPage(response, target.url.href, visited.slice(0, -1), options);
  }
}

async function send(url: URL, pinned: Parameters<typeof requestPinned>[1], signal: AbortSignal): Promise<IncomingMessage> {
  try {
    return await requestPinned(url, pinned, signal);
  } catch (error) {
    if (signal.aborted) throw error;
    const code = nodeErrorCode(error);
    const detail = error instanceof Error ? error.message : String(error);
    throw new ToolError("failed", `Could not connect to ${url.host}${code ? ` (${code})` : ""}: ${detail}`);
  }
}

async function readPage(response: IncomingMessage, url: string, redirectedFrom: string[], options: FetchPageOptions): Promise<FetchedPage> {
  const status = response.statusCode ?? 0;
  const contentType = String(response.headers["content-type"] ?? "");
  const declared = contentKindOf(contentType);
  if (declared === "binary") {
    response.destroy();
    throw new ToolError("invalid_arguments", `${url} is ${mediaTypeOf(contentType)}${sizeNote(response)}, not a text page; web_fetch only reads HTML, text and JSON.`);
  }
  const body = await readCappedBody(response, options.maxBytes, options.signal);
  const kind = declared ?? sniffContentKind(body.bytes);
  if (kind === "binary") {
    throw new ToolError("invalid_arguments", `${url} is binary data (${contentType || "no content type"}), not a text page; web_fetch only reads HTML, text and JSON.`);
  }
  if (declared !== undefined && contradictsTextHeader(body.bytes, contentType)) {
    throw new ToolError("invalid_arguments", `${url} says it is ${mediaTypeOf(contentType)} but its bytes are binary data (a file type's signature or NUL bytes), not a text page; web_fetch only reads HTML, text and JSON.`);
  }
  return { url, redirectedFrom, status, contentType, kind, bytes: body.bytes, truncated: body.truncated };
}

function sizeNote(response: IncomingMessage): string {
  const length = Number(response.headers["content-length"]);
  return Number.isFinite(length) && length > 0 ? ` (${length} bytes)` : "";
}
