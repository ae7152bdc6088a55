import { blobIdOf, isBlobId, type BlobStore, type StoredBlob } from "../../context/compression/blob-store.js";

/** Blobs put but not yet stored: the next session write stores them in its own transaction. */
export interface PendingBlobs {
  take(): StoredBlob[];
  /** Puts back what a failed transaction did not store. */
  restore(blobs: readonly StoredBlob[]): void;
}

export interface PostgresBlobCache extends BlobStore, PendingBlobs {
  /** Blobs read from the database (a resumed session's), now served by `get`. */
  remember(blobs: readonly StoredBlob[]): void;
}

/**
 * The blob store of a Postgres session store. `put` and `get` are synchronous (the `BlobStore`
 * contract: a policy decides inside a pure step), so blobs are cached in memory: a put is stored with
 * the next session write, in the same transaction as the record that names it, and opening a session
 * first reads every blob its records name.
 */
export function createPostgresBlobCache(): PostgresBlobCache {
  const known = new Map<string, string>();
  let pending = new Map<string, string>();
  return {
    put(content) {
      const id = blobIdOf(content);
      if (!known.has(id)) {
        known.set(id, content);
        pending.set(id, content);
      }
      return id;
    },
    get(id) {
      return isBlobId(id) ? known.get(id) : undefined;
    },
    ids: () => [...known.keys()].sort(),
    take() {
      const taken = [...pending].map(([id, content]) => ({ id, content }));
      pending = new Map();
      return taken;
    },
    restore(blobs) {
      for (const blob of blobs) pending.set(blob.id, blob.content);
    },
    remember(blobs) {
      for (const blob of blobs) if (blobIdOf(blob.content) === blob.id) known.set(blob.id, blob.content);
    },
  };
}

/** The blob ids a session's records name (previews and stubs carry them in their text and metadata). */
export function blobIdsNamedIn(records: readonly string[]): string[] {
  const ids = new Set<string>();
  for (const record of records) for (const match of record.matchAll(/blob_[0-9a-f]{16}/g)) ids.add(match[0]);
  return [...ids];
}
