import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readWordVectors } from "./read-word-vectors.js";

describe("readWordVectors", () => {
  let folder = "";
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "ctxkit-word-vectors-"));
  });
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it("reads wink's JSON, keeping the wanted words and dropping the norm and index wink stores after each vector", async () => {
    const file = join(folder, "wink.json");
    await writeFile(file, JSON.stringify({ precision: 8, l2NormIndex: 2, wordIndex: 3, size: 3, dimensions: 2, words: ["booking", "reservation", "other"], vectors: { booking: [0.6, 0.8, 1, 0], reservation: [1, 0, 1, 1], other: [0, 1, 1, 2] } }));
    const vectors = await readWordVectors(file, new Set(["booking", "reservation", "absent"]));
    expect(vectors).toMatchObject({ words: 2, dimensions: 2 });
    expect(Array.from(vectors.lookup("booking")!)).toEqual([Math.fround(0.6), Math.fround(0.8)]);
    expect(vectors.lookup("other")).toBeUndefined();
  });

  it("reads GloVe's text format, skipping lines of another length", async () => {
    const file = join(folder, "glove.100d.txt");
    await writeFile(file, "the 0.1 0.2 0.3\nbooking 1 0 0\nbroken 1 0\nreservation 0.9 0.1 0\n");
    const vectors = await readWordVectors(file, new Set(["booking", "reservation", "broken"]));
    expect(vectors).toMatchObject({ words: 2, dimensions: 3 });
    expect(Array.from(vectors.lookup("reservation")!)).toEqual([0.9, 0.1, 0].map(Math.fround));
  });

  it("says what is wrong with a missing file, a JSON of another shape and a file without the wanted words", async () => {
    await expect(readWordVectors(join(folder, "nope.json"), new Set(["a"]))).rejects.toThrow(/no file at/);
    const other = join(folder, "other.json");
    await writeFile(other, JSON.stringify({ hello: 1 }));
    await expect(readWordVectors(other, new Set(["a"]))).rejects.toThrow(/not wink's embeddings JSON/);
    const unrelated = join(folder, "unrelated.txt");
    await writeFile(unrelated, "zzz 1 2\n");
    await expect(readWordVectors(unrelated, new Set(["booking"]))).rejects.toThrow(/none of the benchmark's words/);
  });
});
