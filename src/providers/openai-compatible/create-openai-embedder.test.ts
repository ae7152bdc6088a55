import { describe, expect, it } from "vitest";
import { createOpenAIEmbedder, parseEmbeddings } from "./create-openai-embedder.js";

const base64 = (values: number[]) => Buffer.from(Float32Array.from(values).buffer).toString("base64");

describe("parseEmbeddings (the /v1/embeddings answer)", () => {
  it("places items by their index, and reads float lists and base64 float32s alike", () => {
    const text = JSON.stringify({ data: [{ index: 1, embedding: base64([0.5, -1]) }, { index: 0, embedding: [1, 2] }] });
    expect(parseEmbeddings(text, 2).map((vector) => [...vector])).toEqual([[1, 2], [0.5, -1]]);
  });

  it("refuses an answer that does not hold one embedding per text", () => {
    const refuse = (body: unknown, count = 2) => expect(() => parseEmbeddings(typeof body === "string" ? body : JSON.stringify(body), count)).toThrow(expect.objectContaining({ code: "embedding_failed" }));
    refuse("not json");
    refuse({ data: [{ index: 0, embedding: [1] }] });
    refuse({ data: [{ index: 0, embedding: [1] }, { index: 0, embedding: [2] }] });
    refuse({ data: [{ index: 0, embedding: [1] }, { index: 2, embedding: [2] }] });
    refuse({ data: [{ index: 0, embedding: ["1"] }] }, 1);
    refuse({ data: [{ index: 0, embedding: "abc" }] }, 1);
    refuse({ data: [{ index: 0, embedding: [] }] }, 1);
  });
});

describe("createOpenAIEmbedder", () => {
  it("posts {model, input, encoding_format} to <baseURL>/embeddings with the key as a bearer token", async () => {
    const sent: Array<{ url: string; headers: Record<string, string>; body: unknown }> = [];
    const fetch = (async (url: string, init: RequestInit) => {
      sent.push({ url, headers: init.headers as Record<string, string>, body: JSON.parse(init.body as string) });
      return new Response(JSON.stringify({ data: [{ index: 0, embedding: base64([3, 4]) }] }));
    }) as unknown as typeof globalThis.fetch;
    const embedder = createOpenAIEmbedder({ baseURL: "https://example.test/v1/", model: "m", apiKey: "k", dimensions: 2, fetch });
    expect((await embedder.embed(["hello"], new AbortController().signal)).map((vector) => [...vector])).toEqual([[3, 4]]);
    expect(sent).toEqual([{ url: "https://example.test/v1/embeddings", headers: { "content-type": "application/json", authorization: "Bearer k" }, body: { model: "m", input: ["hello"], encoding_format: "base64", dimensions: 2 } }]);
  });

  it("says what to fix for a bad URL, a missing model and an HTTP error", async () => {
    expect(() => createOpenAIEmbedder({ baseURL: "localhost:8080", model: "m" })).toThrow(/must start with http/);
    expect(() => createOpenAIEmbedder({ baseURL: "http://x", model: " " })).toThrow(expect.objectContaining({ code: "model_missing" }));
    const fetch = (async () => new Response(JSON.stringify({ error: { message: "no such model" } }), { status: 404 })) as unknown as typeof globalThis.fetch;
    await expect(createOpenAIEmbedder({ baseURL: "http://x/v1", model: "m", fetch }).embed(["a"], new AbortController().signal)).rejects.toThrow(/HTTP 404: no such model/);
  });
});
