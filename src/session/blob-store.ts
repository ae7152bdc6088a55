import { noteHarnessWrite } from "../security/harness-writes.js";
import { existsSync, readdirSync, readFileSync, renameSync } from "node:fs";
import { join } from "node:path";
import { blobIdOf, isBlobId, type BlobStore } from "../context/compression/blob-store.js";
import { SessionError } from "../types/index.js";
import { makePrivateDirectorySync, writePrivateFileSync } from "./private-storage.js";

const EXTENSION = ".txt";

/**
 * The durable blob store: one file per blob under `directory` (the CLI uses `<data-dir>/blobs/`),
 * named by the content hash, so a blob is written once and a restart finds every blob a frozen
 * preview or stub names. Writes go to a temporary file first and are renamed into place, so a crash
 * never leaves a half-written blob under a real id. Reads check the hash: a damaged file reads as
 * missing instead of returning wrong bytes.
 */
export function createFileBlobStore(directory: string): BlobStore {
  const known = new Set<string>();
  let created = false;
  const pathOf = (id: string) => join(directory, `${id}${EXTENSION}`);

  return {
    put(content) {
      const id = blobIdOf(content);
      if (known.has(id)) return id;
      const path = pathOf(id);
      if (!existsSync(path)) {
        try {
          if (!created) makePrivateDirectorySync(directory);
          created = true;
          const temporary = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
          writePrivateFileSync(temporary, content);
          renameSync(temporary, path);
          noteHarnessWrite({ path, content: Buffer.from(content, "utf8") });
        } catch (error) {
          throw new SessionError("blob_store_unwritable", `Could not store a blob in ${directory}: ${error instanceof Error ? error.message : String(error)}. Check that the data directory is writable.`, { cause: error });
        }
      }
      known.add(id);
      return id;
    },
    get(id) {
      // The id comes from a model's tool call: only well-formed ids become paths.
      if (!isBlobId(id)) return undefined;
      let content: string;
      try {
        content = readFileSync(pathOf(id), "utf8");
      } catch {
        return undefined;
      }
      return blobIdOf(content) === id ? content : undefined;
    },
    ids() {
      if (!existsSync(directory)) return [];
      return readdirSync(directory)
        .filter((name) => name.endsWith(EXTENSION))
        .map((name) => name.slice(0, -EXTENSION.length))
        .filter(isBlobId)
        .sort();
    },
  };
}
