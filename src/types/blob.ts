/** A piece of text the harness moved out of the context (a whole tool result), stored under its content hash. */
export interface StoredBlob {
  id: string;
  content: string;
}

/** Reads stored blobs: `get` returns the exact text stored under `id`. */
export interface BlobReader {
  get(id: string): string | undefined;
  /** Every stored id, for searching what was compressed (optional: stores that cannot list omit it). */
  ids?(): string[];
}

/**
 * Where compressed-away content lives so it can be recalled byte for byte. `put` is synchronous and
 * content-addressed: the same text always gets the same id, so storing twice is harmless and a
 * restart that re-stores a result names the same blob the frozen preview already shows.
 */
export interface BlobStore extends BlobReader {
  /** Stores the text and returns its id (a hash of the content). */
  put(content: string): string;
}
