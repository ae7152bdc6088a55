import { createLlamaEmbedder } from "../providers/llama/create-llama-embedder.js";
import { createOpenAIEmbedder } from "../providers/openai-compatible/create-openai-embedder.js";
import type { ToolSearchEmbedder } from "../types/index.js";
import { ConfigError } from "../types/index.js";

/** Where tool search's embedding model is: an OpenAI-compatible server, or a local GGUF file. */
export interface ToolSearchEmbeddingSettings {
  /** Base URL of a `/v1/embeddings` server (`/v1` included; `/embeddings` is appended). */
  url?: string;
  /** The model the server embeds with. */
  model?: string;
  /** The environment variable holding the server's API key (none: no Authorization header). */
  apiKeyEnv?: string;
  /** A GGUF embedding model run in-process through node-llama-cpp. */
  modelPath?: string;
}

/** What the settings are called where the caller set them (the flag and the config key by default; a bench's flags). */
export type ToolSearchEmbeddingSettingNames = Record<keyof ToolSearchEmbeddingSettings, string>;

// A config's settings come from a flag, a variable or a file, which is not known here: both names are given.
const configKeyNames: ToolSearchEmbeddingSettingNames = {
  url: "--tool-search-embeddings-url / toolSearchEmbeddingsUrl",
  model: "--tool-search-embeddings-model / toolSearchEmbeddingsModel",
  apiKeyEnv: "--tool-search-embeddings-api-key-env / toolSearchEmbeddingsApiKeyEnv",
  modelPath: "--tool-search-embedding-model-path / toolSearchEmbeddingModelPath",
};

/** The embedder and how to name it in a report; undefined when no setting asks for one. */
export function createToolSearchEmbedder(settings: ToolSearchEmbeddingSettings, env: NodeJS.ProcessEnv, names: ToolSearchEmbeddingSettingNames = configKeyNames): { embedder: ToolSearchEmbedder; label: string } | undefined {
  const { url, model, apiKeyEnv, modelPath } = settings;
  if (url === undefined && model === undefined && modelPath === undefined) return undefined;
  if (modelPath !== undefined && url !== undefined) {
    throw new ConfigError("option_invalid", `Give tool search one embedding model: a server (${names.url}) or a GGUF file (${names.modelPath}), not both.`);
  }
  if (modelPath !== undefined) return { embedder: createLlamaEmbedder({ modelPath }), label: `GGUF ${modelPath} through node-llama-cpp` };
  if (url === undefined || model === undefined) {
    throw new ConfigError("option_invalid", `Tool search's embedding server needs both its URL (${names.url}, e.g. http://127.0.0.1:8080/v1) and its model (${names.model}).`);
  }
  const apiKey = apiKeyEnv === undefined ? undefined : env[apiKeyEnv];
  if (apiKeyEnv !== undefined && (apiKey === undefined || apiKey === "")) {
    // Not api_key_missing: that code's advice (--api-key, CTXKIT_API_KEY) is about the chat model's key.
    throw new ConfigError(
      "embeddings_api_key_missing",
      `Tool search's embedding server takes its API key from the environment variable ${apiKeyEnv}, which is not set. Set ${apiKeyEnv}, name another variable with ${names.apiKeyEnv}, or drop that setting for a server that needs no key.`,
    );
  }
  return { embedder: createOpenAIEmbedder({ baseURL: url, model, ...(apiKey ? { apiKey } : {}) }), label: `${model} at ${url}` };
}
