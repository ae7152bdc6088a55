export { createLlama, type LlamaProvider } from "./create-llama.js";
export type { LlamaProviderOptions, LlamaToolChoice } from "./llama-provider-options.js";
export type { LlamaCallRecord } from "./stream-llama-call.js";
export { createTinyQwen3Gguf, type TinyQwen3Options } from "./gguf/create-tiny-qwen3-gguf.js";
export { createLlamaEmbedder, type LlamaEmbedder, type LlamaEmbedderOptions } from "./create-llama-embedder.js";
