import { ConfigError, ProviderError } from "../../types/index.js";
import { maxEmbeddingDimensions, type ToolSearchEmbedder } from "../../types/index.js";
import { safeParseJson } from "../shared/canonical-json.js";
import { extractMessage } from "../shared/fetch-with-retry.js";
import { readBodyHead, readWholeBody } from "../shared/read-bounded-body.js";

export interface OpenAIEmbedderOptions {
  /** The server's base URL, `/v1` included as for chat (`https://api.openai.com/v1`, `http://127.0.0.1:8080/v1` for llama-server --embeddings, `http://127.0.0.1:11434/v1` for Ollama); `/embeddings` is appended. */
  baseURL: string;
  /** The embedding model's name (`text-embedding-3-small`, `nomic-embed-text`, …). */
  model: string;
  /** Sent as `Authorization: Bearer …` when given (local servers need none). */
  apiKey?: string;
  /** Asks for vectors of this length (OpenAI's text-embedding-3 models; others ignore or refuse it). */
  dimensions?: number;
  /** `base64` (default: a quarter of the bytes of JSON numbers) or `float`, for servers that know only floats. */
  encodingFormat?: "base64" | "float";
  /** Largest answer read, in bytes (default 64 MiB: 64 texts × 4 096 dimensions as JSON numbers, with room). */
  maxResponseBytes?: number;
  fetch?: typeof globalThis.fetch;
}

const defaultMaxResponseBytes = 64 * 1024 * 1024;

/**
 * A `ToolSearchEmbedder` over an OpenAI-compatible `POST /embeddings` endpoint: sends
 * `{model, input: [...], encoding_format}` and reads `{data: [{index, embedding}]}`, the embedding
 * a list of numbers or (base64) little-endian float32s. One attempt per call, bounded by the
 * caller's signal (tool search falls back to words when it fails); the answer's size is bounded,
 * and every item is checked against the texts sent.
 */
export function createOpenAIEmbedder(options: OpenAIEmbedderOptions): ToolSearchEmbedder {
  if (typeof options.baseURL !== "string" || !/^https?:\/\//i.test(options.baseURL)) throw new ConfigError("option_invalid", `The embeddings base URL must start with http:// or https:// (got ${JSON.stringify(options.baseURL)}).`);
  if (typeof options.model !== "string" || options.model.trim() === "") throw new ConfigError("model_missing", "Name the embedding model (e.g. text-embedding-3-small, or the model llama-server or Ollama serves).");
  const url = `${options.baseURL.replace(/\/+$/, "")}/embeddings`;
  const encoding = options.encodingFormat ?? "base64";
  const fetcher = options.fetch ?? globalThis.fetch;
  const maxBytes = options.maxResponseBytes ?? defaultMaxResponseBytes;
  const label = `The embeddings server at ${url}`;
  return {
    id: `openai:${url}:${options.model}:${options.dimensions ?? ""}`,
    async embed(texts, signal) {
      if (texts.length === 0) return [];
      const body = { model: options.model, input: texts, encoding_format: encoding, ...(options.dimensions === undefined ? {} : { dimensions: options.dimensions }) };
      let response: Response;
      try {
        response = await fetcher(url, {
          method: "POST",
          headers: { "content-type": "application/json", ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}) },
          body: JSON.stringify(body),
          signal,
        });
      } catch (error) {
        if (signal.aborted) throw signal.reason;
        throw new ProviderError("embedding_failed", `${label} could not be reached (${error instanceof Error ? error.message : String(error)}). Check the URL and that the server runs.`, { cause: error });
      }
      if (!response.ok) {
        const error = await readBodyHead(response).catch(() => "");
        throw new ProviderError("embedding_failed", `${label} answered HTTP ${response.status}: ${extractMessage(error).slice(0, 300)}`);
      }
      return parseEmbeddings(await readWholeBody(response, maxBytes, (limit) => invalid(label, `a body over ${limit} bytes`)), texts.length, label);
    },
  };
}

/** The vectors of an `/embeddings` answer, in the order of the texts sent; throws `embedding_failed` on anything else. */
export function parseEmbeddings(text: string, count: number, label = "The embeddings server"): Float32Array[] {
  const parsed = safeParseJson(text);
  const data = parsed.success ? (parsed.value as { data?: unknown } | null)?.data : undefined;
  if (!Array.isArray(data)) throw invalid(label, `no \`data\` list: ${text.slice(0, 200)}`);
  if (data.length !== count) throw invalid(label, `${data.length} embeddings for ${count} texts`);
  const vectors = new Array<Float32Array | undefined>(count);
  data.forEach((item: unknown, position) => {
    const { index, embedding } = (item ?? {}) as { index?: unknown; embedding?: unknown };
    // Servers send the items in order; `index` says so when present.
    const at = index === undefined ? position : index;
    if (typeof at !== "number" || !Number.isInteger(at) || at < 0 || at >= count || vectors[at] !== undefined) throw invalid(label, `item ${position} with a missing, repeated or out-of-range index`);
    vectors[at] = toVector(embedding, label, position);
  });
  return vectors as Float32Array[];
}

function toVector(embedding: unknown, label: string, position: number): Float32Array {
  if (typeof embedding === "string") {
    const bytes = Buffer.from(embedding, "base64");
    if (bytes.length === 0 || bytes.length % 4 !== 0 || bytes.length / 4 > maxEmbeddingDimensions) throw invalid(label, `item ${position}'s base64 embedding of ${bytes.length} bytes (not a list of float32s)`);
    const vector = new Float32Array(bytes.length / 4);
    for (let index = 0; index < vector.length; index += 1) vector[index] = bytes.readFloatLE(index * 4);
    return vector;
  }
  if (!Array.isArray(embedding) || embedding.length === 0 || embedding.length > maxEmbeddingDimensions || !embedding.every((value) => typeof value === "number")) {
    throw invalid(label, `item ${position} without an embedding of numbers (or base64 float32s)`);
  }
  return Float32Array.from(embedding as number[]);
}

function invalid(label: string, what: string): ProviderError {
  return new ProviderError("embedding_failed", `${label} answered with ${what}; expected {"data": [{"index", "embedding"}]} as OpenAI's /v1/embeddings sends.`);
}
