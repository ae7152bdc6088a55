import { textOf, toolCallsOf, ToolError, type BlobReader, type Message, type Tool, type ToolContext, type ToolOutput } from "../../types/index.js";
import { findMarkers } from "../external-content/find-markers.js";
import { createCompressedContentSearch, type CompressedContentSearch } from "./compressed-content-search.js";
import { blobIdOfMessage, originalIdOf } from "./markers.js";

export interface RecallArgs {
  blob?: string;
  message?: string;
  query?: string;
  offset?: number;
  limit?: number;
}

export interface RecallToolOptions {
  /** Where the originals are; default: the agent's blob store (`ToolContext.blobs`). */
  blobStore?: BlobReader;
  /** Finds a message by id in the session log, which keeps every original; default: the agent's (`ToolContext.findMessage`). */
  lookupMessage?: (id: string) => Message | undefined | Promise<Message | undefined>;
  /** Most characters returned per call, and the default `limit` (default 20 000). */
  maxChars?: number;
  /** Search hits returned (default 5). */
  maxHits?: number;
}

/**
 * Makes compression recoverable: the model gets back the exact original of anything compressed —
 * by the blob id a preview or stub names, by message id, or by a BM25 search over everything
 * compressed. Content that fits is returned byte for byte with nothing added; longer content comes
 * in pages with a note saying where to continue.
 */
export function createRecallTool(options: RecallToolOptions = {}): Tool<RecallArgs> {
  const maxChars = options.maxChars ?? 20_000;
  const maxHits = options.maxHits ?? 5;
  const searches = new WeakMap<BlobReader, CompressedContentSearch>();
  const storeOf = (context: ToolContext): BlobReader => {
    const store = options.blobStore ?? context.blobs;
    if (store === undefined) throw new ToolError("not_found", "Nothing can be recalled here: this agent has no blob store.");
    return store;
  };
  const searchOf = (store: BlobReader): CompressedContentSearch => {
    let search = searches.get(store);
    if (search === undefined) searches.set(store, (search = createCompressedContentSearch(store)));
    return search;
  };

  const page = (text: string, source: string, args: RecallArgs): string => {
    const offset = Math.max(0, Math.floor(args.offset ?? 0));
    const limit = Math.min(maxChars, Math.max(1, Math.floor(args.limit ?? maxChars)));
    if (offset === 0 && text.length <= limit) return text;
    if (offset >= text.length) throw new ToolError("invalid_arguments", `offset ${offset} is past the end of ${source}, which has ${text.length} characters.`);
    const end = Math.min(text.length, offset + limit);
    const more = end < text.length ? ` Call recall with offset=${end} for more.` : "";
    return `${text.slice(offset, end)}\n[recall: characters ${offset}–${end} of ${text.length} of ${source}.${more}]`;
  };

  return {
    name: "recall",
    description:
      "Get back content that was compressed out of the context, exactly as it was. Compressed results say " +
      '[COMPRESSED] or [PREVIEW] and name a blob id (blob_…) or message ids. Pass one of: "blob" (a blob id), ' +
      '"message" (a message id), or "query" (words to search everything compressed; returns blob ids with ' +
      `character offsets). Long content comes ${maxChars} characters at a time: pass "offset" to continue. ` +
      'Example: {"blob": "blob_0123456789abcdef", "offset": 20000}',
    parameters: {
      type: "object",
      properties: {
        blob: { type: "string", description: "A blob id from a [COMPRESSED] or [PREVIEW] message, e.g. \"blob_0123456789abcdef\"." },
        message: { type: "string", description: "A message id named in a summary or stub." },
        query: { type: "string", description: "Words to search for in everything that was compressed." },
        offset: { type: "integer", minimum: 0, description: "Character offset to start from (default 0)." },
        limit: { type: "integer", minimum: 1, description: `Characters to return (default and maximum ${maxChars}).` },
      },
      additionalProperties: false,
    },
    parallelSafe: true,
    // What it returns was already in the context (external results with their tags): the harness's own store.
    source: "trusted",
    risk: "read",
    async execute(args, context) {
      const store = storeOf(context);
      const lookupMessage = options.lookupMessage ?? context.findMessage;
      const given = [args.blob, args.message, args.query].filter((value) => value !== undefined && value !== "");
      if (given.length !== 1) throw new ToolError("invalid_arguments", 'Pass exactly one of "blob", "message" or "query".');
      if (args.blob) {
        const text = store.get(args.blob);
        if (text === undefined) throw new ToolError("not_found", `No blob '${args.blob}'. Blob ids look like blob_0123456789abcdef and are named in [COMPRESSED] and [PREVIEW] messages.`);
        return withProvenance(page(text, args.blob, args), carriesExternalContent(text));
      }
      if (args.message) {
        if (!lookupMessage) throw new ToolError("not_found", "Recall by message id is not available here; use the blob id the stub or summary names.");
        const message = (await lookupMessage(originalIdOf(args.message))) ?? (await lookupMessage(args.message));
        if (message === undefined) throw new ToolError("not_found", `No message '${args.message}' in this session.`);
        // A preview or stub names its original in the metadata the harness stored with it.
        const blobId = blobIdOfMessage(message);
        const original = blobId === undefined ? undefined : store.get(blobId);
        const text = original ?? messageText(message);
        return withProvenance(page(text, args.message, args), isExternalMessage(message) || carriesExternalContent(text));
      }
      const hits = searchOf(store).search(args.query!, maxHits);
      if (hits.length === 0) return `Nothing compressed matches "${args.query}".`;
      const external = hits.some((hit) => carriesExternalContent(store.get(hit.blobId) ?? ""));
      return withProvenance([
        `${hits.length} passage${hits.length === 1 ? "" : "s"} match "${args.query}" (recall {"blob": …, "offset": …} shows more):`,
        ...hits.map((hit, index) => `${index + 1}. ${hit.blobId} offset ${hit.offset}: ${hit.snippet}`),
      ].join("\n"), external);
    },
  };
}

/**
 * Recall gives back what was in the context, so it carries that text's provenance: text from outside
 * comes back as external (tagged and screened again by the source tags), never laundered into
 * trusted output by the round trip (issue 24: recall laundering). The message's metadata decides;
 * for a blob, the tags source-tags wrote into it before it was stored.
 */
function withProvenance(content: string, external: boolean): ToolOutput | string {
  return external ? { content, source: "external" } : content;
}

function isExternalMessage(message: Message): boolean {
  // A summary, archive or stub derived from untrusted content carries its sources (`meta.provenance`).
  return (message.role === "tool" && message.meta.external !== undefined) || (message.meta.provenance?.untrusted.length ?? 0) > 0;
}

function carriesExternalContent(text: string): boolean {
  return findMarkers(text).some((marker) => marker.kind === "external");
}

/** A message as text: its content, or an assistant's text and tool calls. */
function messageText(message: Message): string {
  if (message.role !== "assistant") return message.content;
  const calls = toolCallsOf(message).map((call) => `${call.name} ${call.argumentsText}`);
  return [textOf(message), ...calls].filter((part) => part !== "").join("\n");
}
