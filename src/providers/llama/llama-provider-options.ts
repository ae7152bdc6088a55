import type { ModelRequest } from "../../types/model-request.js";

/**
 * Whether the model may, must or must not call a tool this call: `auto` lets it choose (a call, once
 * opened, is grammar-constrained to an active tool); `required` constrains the whole response to
 * tool calls; `none` masks the `<tool_call>` token.
 */
export type LlamaToolChoice = "auto" | "required" | "none";

export interface LlamaProviderOptions {
  /** A GGUF model file; its own chat template (metadata `tokenizer.chat_template`) renders prompts. */
  modelPath: string;
  /** Tokens the KV cache holds: prompt plus output (default 8192). */
  contextSize?: number;
  /** Layers to offload to a GPU; CPU only when absent or 0. */
  gpuLayers?: number;
  /**
   * llama.cpp's flash attention (default: the engine's choice). On CPU it halves a long prefill but
   * makes short batches after a long cached prefix several times slower.
   */
  flashAttention?: boolean;
  /** CPU threads (default: all cores but one). */
  threads?: number;
  /**
   * The tool names the decoder may emit, per provider or per call. The request's tools and the
   * prompt stay byte-identical whatever is active — masking happens in the sampler, so the KV cache
   * is untouched when availability changes. Default: every tool in the request.
   */
  activeTools?: readonly string[] | ((request: ModelRequest) => readonly string[] | undefined);
  /** Default `auto`; a function decides per call. */
  toolChoice?: LlamaToolChoice | ((request: ModelRequest) => LlamaToolChoice);
  /** Whether one response may hold several tool calls (default true; at most 8). */
  parallelToolCalls?: boolean;
  /** Sampling seed (default: llama.cpp's, from the clock). */
  seed?: number;
  /** Used when a request sets no temperature (default 0.6, Qwen3's recommendation for thinking). */
  temperature?: number;
  /** Used when a request sets no `maxOutputTokens` (default 1024). */
  maxOutputTokens?: number;
  /** Qwen3's `enable_thinking` template switch; left to the template's default when absent. */
  enableThinking?: boolean;
  /** A Jinja chat template to use instead of the model's own. */
  chatTemplate?: string;
  /** Reported as the provider's model name (default: the file name). */
  model?: string;
  /** The module loaded instead of node-llama-cpp (tests of the missing-dependency error). */
  moduleSpecifier?: string;
}
