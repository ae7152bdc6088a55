import { findMarkers } from "./find-markers.js";
import { neutraliseMarkers, type NeutralisedText } from "./neutralise-markers.js";

export interface WrappedExternalContent extends NeutralisedText {
  nonce: string;
}

/** A tag attribute value ctxkit writes: names and nonces keep only characters that need no quoting. */
export function toAttributeValue(value: string): string {
  return value.replace(/[^A-Za-z0-9_.:-]/g, "_").slice(0, 64) || "_";
}

/**
 * Wraps text from outside as data: `<external_content source="…" id="…">`, the neutralised text,
 * then `</external_content id="…">`. The id is the caller's nonce (from the injected id generator,
 * never from the content); the content itself can no longer contain anything the marker grammar
 * reads as a boundary, so the closing tag with this id is the only one.
 */
export function wrapExternalContent(content: string, options: { source: string; nonce: string }): WrappedExternalContent {
  const nonce = options.nonce.toLowerCase().replace(/[^a-z0-9_-]/g, "_").slice(0, 64) || "_";
  const neutralised = neutraliseMarkers(content);
  const { open, close } = externalContentTags(options.source, nonce);
  return { ...neutralised, text: `${open}\n${neutralised.text}\n${close}`, nonce };
}

/**
 * The opening and closing tag of an external block from `source` with `nonce` (already made safe,
 * see `wrapExternalContent`): a compaction keeping a tagged result's lines wraps them in the same tags.
 */
export function externalContentTags(source: string, nonce: string): { open: string; close: string } {
  return { open: `<external_content source="${toAttributeValue(source)}" id="${nonce}">`, close: `</external_content id="${nonce}">` };
}

/** A span of text inside one recognised external block (its opening and closing tag share an id). */
export interface ExternalBlock {
  start: number;
  end: number;
  id: string;
  source?: string;
}

/**
 * The external blocks a reader that trusts the grammar recognises: an opening tag with an id up to
 * the next closing tag with the same id. A forged closing tag would end a block early — which is why
 * wrapped content must parse to exactly one block (see the fuzzer).
 */
export function findExternalBlocks(text: string): ExternalBlock[] {
  const blocks: ExternalBlock[] = [];
  let open: { start: number; id: string; source?: string } | undefined;
  for (const marker of findMarkers(text)) {
    if (marker.kind !== "external" || marker.id === undefined) continue;
    if (!marker.closing && open === undefined) open = { start: marker.start, id: marker.id, ...(marker.source ? { source: marker.source } : {}) };
    else if (marker.closing && open !== undefined && marker.id === open.id) {
      blocks.push({ ...open, end: marker.end });
      open = undefined;
    }
  }
  return blocks;
}

/** `text` with every recognised external block cut out: what a model that only obeys the harness and the user reads as instructions. */
export function textOutsideExternalBlocks(text: string): string {
  let outside = "";
  let cursor = 0;
  for (const block of findExternalBlocks(text)) {
    outside += text.slice(cursor, block.start);
    cursor = block.end;
  }
  return outside + text.slice(cursor);
}
