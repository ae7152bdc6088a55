import { mkdtemp, readdir, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { blobIdOf } from "../context/compression/blob-store.js";
import { createFileBlobStore } from "./blob-store.js";

describe("the file blob store", () => {
  it("stores content under its hash and returns the exact bytes, also to a new store over the same directory", async () => {
    const directory = join(await mkdtemp(join(tmpdir(), "ctxkit-blobs-")), "blobs");
    const content = "línea 1 — naïve café 🚀\r\nline 2\u0000binary-ish\n".repeat(1000);
    const store = createFileBlobStore(directory);
    const id = store.put(content);
    expect(id).toBe(blobIdOf(content));
    expect(store.put(content)).toBe(id);
    expect(await readdir(directory)).toEqual([`${id}.txt`]);
    const restarted = createFileBlobStore(directory);
    expect(restarted.get(id)).toBe(content);
    expect(restarted.ids!()).toEqual([id]);
  });

  it("keeps blobs private: the folder 0700, each blob 0600 (they hold what the model read)", async () => {
    const directory = join(await mkdtemp(join(tmpdir(), "ctxkit-blobs-")), "data", "blobs");
    const id = createFileBlobStore(directory).put("API_TOKEN=abc\n");
    expect((await stat(directory)).mode & 0o777).toBe(0o700);
    expect((await stat(join(directory, `${id}.txt`))).mode & 0o777).toBe(0o600);
  });

  it("reads a missing, malformed or damaged blob as undefined", async () => {
    const directory = await mkdtemp(join(tmpdir(), "ctxkit-blobs-"));
    const store = createFileBlobStore(directory);
    expect(store.ids!()).toEqual([]);
    expect(store.get("blob_0000000000000000")).toBeUndefined();
    expect(store.get("../../etc/passwd")).toBeUndefined();
    const id = store.put("original");
    await writeFile(join(directory, `${id}.txt`), "tampered");
    expect(createFileBlobStore(directory).get(id)).toBeUndefined();
  });
});
