import { createHash } from "node:crypto";
import type { StoredBlob } from "../../types/index.js";

export type { BlobReader, BlobStore, StoredBlob } from "../../types/index.js";

/** `blob_` + the first 16 hex digits of the SHA-256 of the UTF-8 text. */
export function blobIdOf(content: string): string {
  return `blob_${createHash("sha256").update(content, "utf8").digest("hex").slice(0, 16)}`;
}

export function isBlobId(value: string): boolean {
  return /^blob_[0-9a-f]{16}$/.test(value);
}

/**
 * Collects the blobs a decision needs stored, without storing them: `src/context` stays pure, and
 * the loop persists the blobs only when it applies the decision (a plan that is discarded stores
 * nothing). Ids are content hashes, so they are known before anything is written.
 */
export interface BlobCollector {
  put(content: string): string;
  /** The blobs put since the last `take`, of which only those `wanted` (by id); the collector is emptied. */
  take(wanted: ReadonlySet<string>): StoredBlob[];
}

export function createBlobCollector(): BlobCollector {
  let pending = new Map<string, string>();
  return {
    put(content) {
      const id = blobIdOf(content);
      pending.set(id, content);
      return id;
    },
    take(wanted) {
      const taken = [...pending].filter(([id]) => wanted.has(id)).map(([id, content]) => ({ id, content }));
      pending = new Map();
      return taken;
    },
  };
}

export { createMemoryBlobStore } from "../memory-blob-store.js";
