import { describe, expect, it } from "vitest";
import type { ToolSearchEmbedder } from "../../types/index.js";
import { createPrefetchedEmbedder } from "./prefetched-embedder.js";

/** A deterministic embedder: a text's vector is its length and its first letter's code; `fails` decides which calls throw. */
function fakeEmbedder(fails: (texts: readonly string[]) => boolean = () => false): ToolSearchEmbedder & { calls: string[][] } {
  const calls: string[][] = [];
  return {
    id: "fake",
    calls,
    async embed(texts) {
      calls.push([...texts]);
      if (fails(texts)) throw new Error("connection refused.");
      return texts.map((text) => new Float32Array([text.length, text.charCodeAt(0) || 1, 1]));
    },
  };
}

describe("the bench's prefetched embedder", () => {
  it("embeds the distinct queries once, in batches of 64, and answers them without another call", async () => {
    const embedder = fakeEmbedder();
    const queries = Array.from({ length: 150 }, (_, index) => `query ${index % 100}`);
    const prefetched = await createPrefetchedEmbedder(embedder, queries);
    expect(embedder.calls.map((call) => call.length)).toEqual([64, 36]);
    const direct = await embedder.embed(["query 7", "query 99"], AbortSignal.timeout(1000));
    expect(await prefetched.embed(["query 7", "query 99"], AbortSignal.timeout(1000))).toEqual(direct);
    expect(embedder.calls).toHaveLength(3);
    // A text it has not seen (a tool's) goes to the embedder.
    await prefetched.embed(["get order"], AbortSignal.timeout(1000));
    expect(embedder.calls.at(-1)).toEqual(["get order"]);
  });

  it("stops the bench with the reason when the first batch fails (a dead server would score words alone)", async () => {
    await expect(createPrefetchedEmbedder(fakeEmbedder(() => true), ["a query"])).rejects.toMatchObject({ code: "embedding_failed", message: expect.stringContaining("failed on the bench's queries, so its rows would measure words alone: connection refused.") });
  });
});
