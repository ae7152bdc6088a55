import { existsSync } from "node:fs";
import { basename } from "node:path";
import { CtxkitError } from "../../types/errors.js";
import type { ModelRequest } from "../../types/model-request.js";
import type { Provider, ProviderEvent, SerializedRequest } from "../provider.js";
import { readGgufMetadataString } from "./gguf/read-gguf-metadata-string.js";
import type { LlamaProviderOptions } from "./llama-provider-options.js";
import { loadLlamaEngine, type LlamaEngine } from "./load-llama-engine.js";
import { renderLlamaPrompt, serializeLlamaPrompt, type LlamaPromptSettings } from "./render-llama-prompt.js";
import { streamLlamaCall, type LlamaCallRecord } from "./stream-llama-call.js";
import { createToolGrammars } from "./tool-grammars.js";

export interface LlamaProvider extends Provider {
  /** The exact tokens the engine would evaluate for this request (loads the engine on first use). */
  tokenize(request: ModelRequest): Promise<number[]>;
  /** One record per finished call: prompt tokens, reused tokens, tokens the engine evaluated. */
  readonly calls: readonly LlamaCallRecord[];
  /** Frees the model and its KV cache. */
  dispose(): Promise<void>;
}

const defaultContextSize = 8192;

/**
 * An embedded llama.cpp engine (node-llama-cpp) with exact KV reuse. ctxkit renders the model's own
 * chat template and tokenizes the prompt itself, so it controls the token sequence; the provider
 * keeps one context sequence, and before each call erases only the tail that differs from the new
 * prompt and evaluates only the new tokens. `usage.cachedInputTokens` is what the engine reused and
 * `timeToFirstTokenMs` includes the prefill — a cache break shows up as real recomputation.
 */
export function createLlama(options: LlamaProviderOptions): LlamaProvider {
  if (!existsSync(options.modelPath)) {
    throw new CtxkitError("option_invalid", `The model file ${options.modelPath} does not exist. Pass modelPath: the path of a .gguf file.`);
  }
  const template = options.chatTemplate ?? readGgufMetadataString(options.modelPath, "tokenizer.chat_template");
  if (template === undefined) {
    throw new CtxkitError("option_invalid", `${options.modelPath} has no chat template in its metadata (tokenizer.chat_template). Pass chatTemplate.`);
  }
  const contextSize = options.contextSize ?? defaultContextSize;
  const promptSettings: LlamaPromptSettings = { template, ...(options.enableThinking !== undefined ? { enableThinking: options.enableThinking } : {}) };
  const calls: LlamaCallRecord[] = [];
  let enginePromise: Promise<LlamaEngine> | undefined;
  let grammars: ReturnType<typeof createToolGrammars> | undefined;
  // One sequence holds one KV cache: calls take turns.
  let queue: Promise<void> = Promise.resolve();

  const engine = (): Promise<LlamaEngine> => {
    enginePromise ??= loadLlamaEngine({ ...options, contextSize });
    // A failed load is not cached: the next call tries again (after the user installs the package).
    enginePromise.catch(() => { enginePromise = undefined; });
    return enginePromise;
  };

  async function* stream(request: ModelRequest, signal?: AbortSignal): AsyncGenerator<ProviderEvent> {
    const release = await takeTurn();
    try {
      yield* streamLlamaCall({
        request,
        signal,
        engine,
        grammars: async () => (grammars ??= createToolGrammars(await engine())),
        prompt: () => renderLlamaPrompt(promptSettings, request),
        options,
        contextSize,
        record: (call) => calls.push(call),
      });
    } finally {
      release();
    }
  }

  async function takeTurn(): Promise<() => void> {
    const previous = queue;
    let release!: () => void;
    queue = new Promise((resolve) => { release = resolve; });
    await previous;
    return release;
  }

  return {
    specificationVersion: "v1",
    name: "llama",
    model: options.model ?? basename(options.modelPath),
    calls,
    stream,
    serialize: (request: ModelRequest): SerializedRequest => serializeLlamaPrompt(promptSettings, request),
    async tokenize(request: ModelRequest): Promise<number[]> {
      const { model } = await engine();
      return model.tokenize(renderLlamaPrompt(promptSettings, request), true);
    },
    async dispose(): Promise<void> {
      const loading = enginePromise;
      enginePromise = undefined;
      if (loading) await (await loading).dispose();
    },
  };
}
