import { availableParallelism } from "node:os";
import { resolve } from "node:path";
import type { Llama, LlamaEmbeddingContext, LlamaModel } from "node-llama-cpp";
import { ProviderError } from "../../types/index.js";
import type { ToolSearchEmbedder } from "../../types/index.js";
import { loadNodeLlamaCpp } from "./load-node-llama-cpp.js";

export interface LlamaEmbedderOptions {
  /** A GGUF embedding model (e.g. a Qwen3-Embedding, nomic-embed-text or bge GGUF). */
  modelPath: string;
  /** Tokens read per text; longer texts are cut (default 512, what most embedding models were trained on). */
  contextSize?: number;
  threads?: number;
  gpuLayers?: number;
  /** The module to load instead of node-llama-cpp (tests of the missing-dependency error). */
  moduleSpecifier?: string;
}

export interface LlamaEmbedder extends ToolSearchEmbedder {
  /** Frees the model (loaded on the first `embed`). */
  dispose(): Promise<void>;
}

interface LoadedEmbedder {
  llama: Llama;
  model: LlamaModel;
  context: LlamaEmbeddingContext;
}

/**
 * A `ToolSearchEmbedder` over a local GGUF model through node-llama-cpp (an optional peer
 * dependency): `model.createEmbeddingContext()` and `getEmbeddingFor` per text, one text at a time
 * (the context evaluates one input at once), each cut to `contextSize` tokens. The model is loaded
 * on the first call (prebuilt binaries only, CPU unless `gpuLayers`, llama.cpp's logs dropped); a
 * load failure is thrown again to every later call as the same typed error, without retrying.
 */
export function createLlamaEmbedder(options: LlamaEmbedderOptions): LlamaEmbedder {
  const modelPath = resolve(options.modelPath);
  const contextSize = options.contextSize ?? 512;
  let loaded: Promise<LoadedEmbedder> | undefined;
  // One input at a time: calls from concurrent searches wait their turn.
  let queue: Promise<unknown> = Promise.resolve();
  const load = async (): Promise<LoadedEmbedder> => {
    const module = await loadNodeLlamaCpp(options.moduleSpecifier);
    try {
      // Errors only: llama.cpp warns on every embedding of a decoder model ("some input tokens were not marked as outputs").
      const llama = await module.getLlama({ gpu: options.gpuLayers !== undefined && options.gpuLayers > 0 ? "auto" : false, build: "never", logLevel: module.LlamaLogLevel.error, logger: () => {} });
      const model = await llama.loadModel({ modelPath, ...(options.gpuLayers !== undefined ? { gpuLayers: options.gpuLayers } : {}) });
      const context = await model.createEmbeddingContext({ contextSize, threads: options.threads ?? Math.max(1, availableParallelism() - 1) });
      return { llama, model, context };
    } catch (error) {
      throw new ProviderError("embedding_failed", `The embedding model ${modelPath} could not be loaded (${error instanceof Error ? error.message : String(error)}). Check that the file is a GGUF model node-llama-cpp can read.`, { cause: error });
    }
  };
  return {
    id: `llama:${modelPath}:${contextSize}`,
    // One text per call, so each vector is cached as it completes; two minutes, as the first call loads the model.
    preferred: { batchSize: 1, timeoutMs: 120_000 },
    embed(texts, signal) {
      const run = async () => {
        loaded ??= load();
        const { model, context } = await loaded;
        const vectors: Float32Array[] = [];
        for (const text of texts) {
          if (signal.aborted) throw signal.reason;
          const tokens = model.tokenize(text).slice(0, contextSize);
          const embedding = await context.getEmbeddingFor(tokens);
          vectors.push(Float32Array.from(embedding.vector));
        }
        return vectors;
      };
      const result = queue.then(run, run);
      queue = result.catch(() => undefined);
      return result;
    },
    async dispose() {
      const current = loaded;
      loaded = undefined;
      const engine = await current?.catch(() => undefined);
      if (engine === undefined) return;
      await engine.context.dispose();
      await engine.model.dispose();
      await engine.llama.dispose();
    },
  };
}
