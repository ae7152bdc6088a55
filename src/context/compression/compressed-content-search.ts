import { createLazyRequire } from "../../types/lazy-require.js";
import type MiniSearchClass from "minisearch";
import type { BlobReader as BlobStore } from "./blob-store.js";

// MiniSearch is loaded by the first recall search, not when the CLI starts (a run need not recall anything).
const requireFromHere = createLazyRequire(import.meta.url);

export interface SearchHit {
  blobId: string;
  /** Character offset of the matching passage in the blob. */
  offset: number;
  snippet: string;
  score: number;
}

interface Passage {
  id: string;
  blobId: string;
  offset: number;
  text: string;
}

/** Passages of about this many characters are indexed, so a hit points near what matched. */
const PASSAGE_CHARS = 1500;

export interface CompressedContentSearch {
  search(query: string, limit: number): SearchHit[];
}

/**
 * BM25 search (MiniSearch) over everything compression moved out of the context. The index is
 * built lazily and extended with blobs stored since the last search; a store that cannot list its
 * blobs has nothing to search.
 */
export function createCompressedContentSearch(blobStore: BlobStore): CompressedContentSearch {
  const MiniSearch = requireFromHere("minisearch") as typeof MiniSearchClass;
  const index = new MiniSearch<Passage>({ fields: ["text"], storeFields: ["blobId", "offset", "text"] });
  const indexed = new Set<string>();

  const refresh = () => {
    for (const blobId of blobStore.ids?.() ?? []) {
      if (indexed.has(blobId)) continue;
      indexed.add(blobId);
      const content = blobStore.get(blobId);
      if (content !== undefined) index.addAll(passagesOf(blobId, content));
    }
  };

  return {
    search(query, limit) {
      refresh();
      return index
        .search(query, { prefix: true, fuzzy: 0.1, combineWith: "OR" })
        .slice(0, limit)
        .map((result) => ({
          blobId: result.blobId as string,
          offset: result.offset as number,
          snippet: snippetOf(result.text as string, result.terms),
          score: Math.round(result.score * 100) / 100,
        }));
    },
  };
}

function passagesOf(blobId: string, content: string): Passage[] {
  const passages: Passage[] = [];
  let offset = 0;
  while (offset < content.length) {
    let end = Math.min(content.length, offset + PASSAGE_CHARS);
    const newline = content.lastIndexOf("\n", end);
    if (end < content.length && newline > offset + PASSAGE_CHARS / 2) end = newline + 1;
    passages.push({ id: `${blobId}:${offset}`, blobId, offset, text: content.slice(offset, end) });
    offset = end;
  }
  return passages;
}

/** About 300 characters around the first matched term, on one line. */
function snippetOf(text: string, terms: readonly string[]): string {
  const lower = text.toLowerCase();
  const at = Math.max(0, Math.min(...terms.map((term) => lower.indexOf(term.toLowerCase())).filter((position) => position >= 0), text.length));
  const start = Math.max(0, at - 100);
  const snippet = text.slice(start, start + 300).replace(/\s+/g, " ").trim();
  return `${start > 0 ? "…" : ""}${snippet}${start + 300 < text.length ? "…" : ""}`;
}
