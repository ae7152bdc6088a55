import { afterEach, describe, expect, it } from "vitest";
import { startLoopbackServer, type LoopbackServer } from "../../testing/loopback-server.js";
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

/** A loopback server that records each request (its body parsed) and answers with `answer` (status, body). */
async function startServer(answer: () => { status: number; body: string }) {
  const server = await startLoopbackServer(() => ({ ...answer(), headers: { "content-type": "application/json" } }));
  servers.push(server);
  return {
    baseURL: `${server.url}/v1`,
    get requests() {
      return server.requests.map((request) => ({ method: request.method, url: request.path, headers: request.headers, body: JSON.parse(request.body) as unknown }));
    },
  };
}
const servers: LoopbackServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

describe("createOpenAIEmbedder", () => {
  it("posts {model, input, encoding_format} to <baseURL>/embeddings with the key as a bearer token", async () => {
    const server = await startServer(() => ({ status: 200, body: JSON.stringify({ data: [{ index: 0, embedding: base64([3, 4]) }] }) }));
    const embedder = createOpenAIEmbedder({ baseURL: `${server.baseURL}/`, model: "m", apiKey: "k", dimensions: 2 });
    expect((await embedder.embed(["hello"], new AbortController().signal)).map((vector) => [...vector])).toEqual([[3, 4]]);
    expect(server.requests).toMatchObject([{ method: "POST", url: "/v1/embeddings", headers: { "content-type": "application/json", authorization: "Bearer k" }, body: { model: "m", input: ["hello"], encoding_format: "base64", dimensions: 2 } }]);
    // Without a key: no Authorization header at all.
    await createOpenAIEmbedder({ baseURL: server.baseURL, model: "m" }).embed(["hello"], new AbortController().signal);
    expect(server.requests[1]!.headers.authorization).toBeUndefined();
  });

  it("says what to fix for a bad URL, a missing model and an HTTP error", async () => {
    expect(() => createOpenAIEmbedder({ baseURL: "localhost:8080", model: "m" })).toThrow(/must start with http/);
    expect(() => createOpenAIEmbedder({ baseURL: "http://x", model: " " })).toThrow(expect.objectContaining({ code: "model_missing" }));
    const server = await startServer(() => ({ status: 404, body: JSON.stringify({ error: { message: "no such model" } }) }));
    await expect(createOpenAIEmbedder({ baseURL: server.baseURL, model: "m" }).embed(["a"], new AbortController().signal)).rejects.toThrow(/HTTP 404: no such model/);
  });

  it("bounds the answer: a body over maxResponseBytes is refused, an error body is read to 64 KiB only", async () => {
    const big = await startServer(() => ({ status: 200, body: JSON.stringify({ data: [{ index: 0, embedding: "A".repeat(4_000) }] }) }));
    await expect(createOpenAIEmbedder({ baseURL: big.baseURL, model: "m", maxResponseBytes: 1_000 }).embed(["a"], new AbortController().signal)).rejects.toThrow(/a body over 1000 bytes/);
    const endless = await startServer(() => ({ status: 500, body: "x".repeat(1024 * 1024) }));
    const error = await createOpenAIEmbedder({ baseURL: endless.baseURL, model: "m" }).embed(["a"], new AbortController().signal).catch((thrown: unknown) => thrown as Error);
    expect(error).toMatchObject({ code: "embedding_failed" });
    expect((error as Error).message.length).toBeLessThan(1_000);
  });
});
