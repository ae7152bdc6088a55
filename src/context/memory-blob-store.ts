import type { BlobStore } from "../types/index.js";
import { blobIdOf } from "./compression/blob-store.js";

/** A blob store in memory: the agent's default, and for tests and replays. */
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
