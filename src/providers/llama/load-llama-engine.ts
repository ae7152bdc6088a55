import { availableParallelism } from "node:os";
import type { LlamaContextSequence, LlamaModel, Llama, LlamaContext } from "node-llama-cpp";
import { loadNodeLlamaCpp, type NodeLlamaCpp } from "./load-node-llama-cpp.js";

export interface LlamaEngineOptions {
  modelPath: string;
  contextSize: number;
  gpuLayers?: number;
  threads?: number;
  flashAttention?: boolean;
  /** The module to load instead of node-llama-cpp (tests of the missing-dependency error). */
  moduleSpecifier?: string;
}

/** A loaded model with one context sequence: the KV cache one provider instance keeps. */
export interface LlamaEngine {
  module: NodeLlamaCpp;
  llama: Llama;
  model: LlamaModel;
  context: LlamaContext;
  sequence: LlamaContextSequence;
  dispose(): Promise<void>;
}

/**
 * Loads the engine: prebuilt binaries only (`build: "never"`; nothing is downloaded or compiled at
 * run time), CPU unless GPU layers are asked for, and llama.cpp's log lines dropped — library code
 * never prints, and the loader's warnings about Qwen's FIM tokens are noise for every Qwen GGUF.
 */
export async function loadLlamaEngine(options: LlamaEngineOptions): Promise<LlamaEngine> {
  const module = await loadNodeLlamaCpp(options.moduleSpecifier);
  const llama = await module.getLlama({
    gpu: options.gpuLayers !== undefined && options.gpuLayers > 0 ? "auto" : false,
    build: "never",
    logger: () => {},
  });
  const model = await llama.loadModel({ modelPath: options.modelPath, ...(options.gpuLayers !== undefined ? { gpuLayers: options.gpuLayers } : {}) });
  const context = await model.createContext({
    contextSize: options.contextSize,
    sequences: 1,
    ...(options.flashAttention !== undefined ? { flashAttention: options.flashAttention } : {}),
    // All cores but one: ggml's threads spin at barriers, so a thread per core on a busy machine
    // (a 2-core CI runner, an app's own work) slows each token by orders of magnitude.
    threads: options.threads ?? Math.max(1, availableParallelism() - 1),
  });
  const sequence = context.getSequence();
  return {
    module,
    llama,
    model,
    context,
    sequence,
    async dispose() {
      await context.dispose();
      await model.dispose();
      await llama.dispose();
    },
  };
}
