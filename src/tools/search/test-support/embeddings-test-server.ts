import { createHash } from "node:crypto";
import { startLoopbackServer } from "../../../testing/loopback-server.js";

/** How the test server answers: real vectors, or one of the ways a server goes wrong. */
export type EmbeddingsServerMode = "ok" | "garbage" | "silent" | "uneven" | "http-500";

export interface EmbeddingsTestServer {
  baseURL: string;
  /** Bodies received, parsed. */
  requests: Array<{ model: string; input: string[]; encoding_format?: string }>;
  /** The headers of each request, in the same order (lower-case names). */
  requestHeaders: Array<Record<string, string | string[] | undefined>>;
  mode: EmbeddingsServerMode;
  close(): Promise<void>;
}

/** Words the test model reads as one meaning (what a sentence-embedding model learns; here written down). */
const meanings: Record<string, string> = {
  approved: "review", approve: "review", signed: "review", reviews: "review", review: "review", reviewed: "review",
  pr: "pull", pull: "pull", request: "pull", requests: "pull",
};

export const embeddingDimensions = 64;

/**
 * A deterministic stand-in for a sentence-embedding model: a text's vector is the bag of its
 * words' meanings (`meanings`, else the word), each hashed into one of 64 dimensions.
 */
export function meaningVector(text: string): Float32Array {
  const vector = new Float32Array(embeddingDimensions);
  for (const word of text.toLowerCase().split(/[^a-z0-9]+/).filter((token) => token.length > 1)) {
    const meaning = meanings[word] ?? word;
    vector[createHash("sha256").update(meaning).digest().readUInt32LE(0) % embeddingDimensions]! += 1;
  }
  // Never all zeros (a text of one-letter words): one fixed dimension carries a little weight.
  vector[0]! += 0.01;
  return vector;
}

/** A loopback HTTP server speaking OpenAI's `POST /v1/embeddings` (float and base64 encodings). */
export async function startEmbeddingsTestServer(mode: EmbeddingsServerMode = "ok"): Promise<EmbeddingsTestServer> {
  const requests: EmbeddingsTestServer["requests"] = [];
  const requestHeaders: EmbeddingsTestServer["requestHeaders"] = [];
  const state = { mode };
  const json = { "content-type": "application/json" };
  const server = await startLoopbackServer((request) => {
    if (request.method !== "POST" || request.path !== "/v1/embeddings") return { status: 404 };
    const body = JSON.parse(request.body) as EmbeddingsTestServer["requests"][number];
    requests.push(body);
    requestHeaders.push({ ...request.headers });
    if (state.mode === "silent") return new Promise<never>(() => {}); // never answers
    if (state.mode === "garbage") return { headers: json, body: '{"data": "not a list"' };
    if (state.mode === "http-500") return { status: 500, headers: json, body: '{"error": {"message": "model not loaded"}}' };
    const data = body.input.map((text, index) => {
      const vector = state.mode === "uneven" && index === 1 ? new Float32Array(3).fill(1) : meaningVector(text);
      const embedding = body.encoding_format === "base64" ? Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength).toString("base64") : [...vector];
      return { object: "embedding", index, embedding };
    });
    // In reverse order: a client must place items by their index.
    return { headers: json, body: JSON.stringify({ object: "list", data: data.reverse(), model: body.model, usage: { prompt_tokens: 1, total_tokens: 1 } }) };
  });
  return {
    baseURL: `${server.url}/v1`,
    requests,
    requestHeaders,
    get mode() {
      return state.mode;
    },
    set mode(next) {
      state.mode = next;
    },
    close: () => server.close(),
  };
}
