import { createHash } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

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
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      if (request.method !== "POST" || request.url !== "/v1/embeddings") {
        response.writeHead(404).end();
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as EmbeddingsTestServer["requests"][number];
      requests.push(body);
      requestHeaders.push({ ...request.headers });
      if (state.mode === "silent") return; // never answers
      if (state.mode === "garbage") return void response.writeHead(200, { "content-type": "application/json" }).end('{"data": "not a list"');
      if (state.mode === "http-500") return void response.writeHead(500, { "content-type": "application/json" }).end('{"error": {"message": "model not loaded"}}');
      const data = body.input.map((text, index) => {
        const vector = state.mode === "uneven" && index === 1 ? new Float32Array(3).fill(1) : meaningVector(text);
        const embedding = body.encoding_format === "base64" ? Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength).toString("base64") : [...vector];
        return { object: "embedding", index, embedding };
      });
      // In reverse order: a client must place items by their index.
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ object: "list", data: data.reverse(), model: body.model, usage: { prompt_tokens: 1, total_tokens: 1 } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    requestHeaders,
    get mode() {
      return state.mode;
    },
    set mode(next) {
      state.mode = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
