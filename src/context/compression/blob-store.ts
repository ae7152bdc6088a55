import { createHash } from "node:crypto";

/**
 * Where compressed-away content lives so it can be recalled byte for byte. `put` is synchronous and
 * content-addressed: the same text always gets the same id, so storing twice is harmless and a
 * restart that re-stores a result names the same blob the frozen preview already shows.
 */
export interface BlobStore {
  /** Stores the text and returns its id (a hash of the content). */
  put(content: string): string;
  /** The exact text stored under `id`, or undefined when there is none. */
  get(id: string): string | undefined;
  /** Every stored id, for searching what was compressed (optional: stores that cannot list omit it). */
  ids?(): string[];
}

/** `blob_` + the first 16 hex digits of the SHA-256 of the UTF-8 text. */
export function blobIdOf(content: string): string {
  return `blob_${createHash("sha256").update(content, "utf8").digest("hex").slice(0, 16)}`;
}

export function isBlobId(value: string): boolean {
  return /^blob_[0-9a-f]{16}$/.test(value);
}

/** A blob store in memory: for tests, replays and agents without a data directory. */
export function createMemoryBlobStore(): BlobStore {
  const blobs = new Map<string, string>();
  return {
    put(content) {
      const id = blobIdOf(content);
      if (!blobs.has(id)) blobs.set(id, content);
      return id;
    },
    get: (id) => blobs.get(id),
    ids: () => [...blobs.keys()],
  };
}
