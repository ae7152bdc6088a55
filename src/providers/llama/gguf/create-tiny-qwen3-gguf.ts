import { createHash } from "node:crypto";
import { stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRandomSource, encodeFloat16, encodeFloat32 } from "./encode-random-weights.js";
import { writeGgufFile, type GgufTensor, type GgufValue } from "./write-gguf-file.js";
import { readQwen3TokenizerConfig, readQwen3TokenizerJson } from "../../../tokens/qwen3-tokenizer-files.js";
import { makeDirectoryTree } from "../../../types/make-directory-tree.js";

export interface TinyQwen3Options {
  /** Where to keep generated files (default: `ctxkit-models` in the OS temp directory). */
  directory?: string;
  embeddingLength?: number;
  layers?: number;
  heads?: number;
  keyValueHeads?: number;
  feedForwardLength?: number;
  seed?: number;
}

interface HfTokenizer {
  added_tokens: Array<{ id: number; content: string; special: boolean }>;
  model: { vocab: Record<string, number>; merges: Array<string | [string, string]> };
}

// GGUF token types (llama.cpp's `llama_token_type`): added tokens marked special are control tokens;
// the others (`<think>`, `<tool_call>`) are user-defined, which llama.cpp always matches whole.
const tokenTypes = { normal: 1, control: 3, userDefined: 4 } as const;

/**
 * A Qwen3-architecture GGUF with random weights and the real Qwen3 tokenizer and chat template
 * (ctxkit's data/qwen3): a real engine runs it (tokenization, prefill, KV cache, grammar sampling)
 * though its text is noise. No weights can be downloaded here, so tests, CI and the offline benchmark
 * generate one. The file is cached by its parameters; returns its path.
 */
export async function createTinyQwen3Gguf(options: TinyQwen3Options = {}): Promise<string> {
  const shape = {
    embeddingLength: options.embeddingLength ?? 64,
    layers: options.layers ?? 2,
    heads: options.heads ?? 4,
    keyValueHeads: options.keyValueHeads ?? 2,
    feedForwardLength: options.feedForwardLength ?? 128,
    seed: options.seed ?? 1,
  };
  const directory = options.directory ?? join(tmpdir(), "ctxkit-models");
  const name = `tiny-qwen3-${createHash("sha256").update(JSON.stringify({ format: 2, ...shape })).digest("hex").slice(0, 12)}.gguf`;
  const path = join(directory, name);
  if (await exists(path)) return path;
  await makeDirectoryTree(directory);
  await writeGgufFile(path, buildTinyQwen3(shape));
  return path;
}

function buildTinyQwen3(shape: Required<Omit<TinyQwen3Options, "directory">>): { metadata: Array<[string, GgufValue]>; tensors: GgufTensor[] } {
  const tokenizer: HfTokenizer = readQwen3TokenizerJson();
  const config = readQwen3TokenizerConfig() as { chat_template: string };
  const vocabularySize = Object.keys(tokenizer.model.vocab).length + tokenizer.added_tokens.length;
  const tokens = new Array<string>(vocabularySize);
  const types = new Array<number>(vocabularySize).fill(tokenTypes.normal);
  for (const [text, id] of Object.entries(tokenizer.model.vocab)) tokens[id] = text;
  for (const added of tokenizer.added_tokens) {
    tokens[added.id] = added.content;
    types[added.id] = added.special || isControlLooking(added.content) ? tokenTypes.control : tokenTypes.userDefined;
  }
  // llama.cpp overrides these to control tokens anyway, with a warning per token on every load.
  types[tokenizer.model.vocab["</s>"]!] = tokenTypes.control;
  const idOf = (text: string): number => tokenizer.added_tokens.find((added) => added.content === text)!.id;
  const merges = tokenizer.model.merges.map((merge) => (typeof merge === "string" ? merge : merge.join(" ")));

  const headDimension = shape.embeddingLength / shape.heads;
  const architecture = "qwen3";
  const metadata: Array<[string, GgufValue]> = [
    ["general.architecture", { type: "string", value: architecture }],
    ["general.name", { type: "string", value: "ctxkit tiny qwen3 (random weights)" }],
    ["general.alignment", { type: "uint32", value: 32 }],
    [`${architecture}.context_length`, { type: "uint32", value: 40960 }],
    [`${architecture}.embedding_length`, { type: "uint32", value: shape.embeddingLength }],
    [`${architecture}.block_count`, { type: "uint32", value: shape.layers }],
    [`${architecture}.feed_forward_length`, { type: "uint32", value: shape.feedForwardLength }],
    [`${architecture}.attention.head_count`, { type: "uint32", value: shape.heads }],
    [`${architecture}.attention.head_count_kv`, { type: "uint32", value: shape.keyValueHeads }],
    [`${architecture}.attention.key_length`, { type: "uint32", value: headDimension }],
    [`${architecture}.attention.value_length`, { type: "uint32", value: headDimension }],
    [`${architecture}.attention.layer_norm_rms_epsilon`, { type: "float32", value: 1e-6 }],
    [`${architecture}.rope.freq_base`, { type: "float32", value: 1_000_000 }],
    ["tokenizer.ggml.model", { type: "string", value: "gpt2" }],
    ["tokenizer.ggml.pre", { type: "string", value: "qwen2" }],
    ["tokenizer.ggml.tokens", { type: "string_array", value: tokens }],
    ["tokenizer.ggml.token_type", { type: "int32_array", value: types }],
    ["tokenizer.ggml.merges", { type: "string_array", value: merges }],
    ["tokenizer.ggml.bos_token_id", { type: "uint32", value: idOf("<|endoftext|>") }],
    ["tokenizer.ggml.eos_token_id", { type: "uint32", value: idOf("<|im_end|>") }],
    ["tokenizer.ggml.padding_token_id", { type: "uint32", value: idOf("<|endoftext|>") }],
    ["tokenizer.ggml.add_bos_token", { type: "bool", value: false }],
    ["tokenizer.chat_template", { type: "string", value: config.chat_template }],
  ];

  const random = createRandomSource(shape.seed);
  const matrix = (name: string, inner: number, outer: number): GgufTensor => {
    const scale = 1 / Math.sqrt(inner);
    return { name, dimensions: [inner, outer], type: "F16", data: encodeFloat16(inner * outer, () => random() * scale) };
  };
  // Norm weights stay F32: ggml's CPU RMS-norm multiply crashes on F16 operands.
  const norm = (name: string, length: number): GgufTensor => ({ name, dimensions: [length], type: "F32", data: encodeFloat32(length, () => 1) });
  const embedding = shape.embeddingLength;
  const tensors: GgufTensor[] = [matrix("token_embd.weight", embedding, vocabularySize), norm("output_norm.weight", embedding)];
  for (let layer = 0; layer < shape.layers; layer += 1) {
    const prefix = `blk.${layer}`;
    tensors.push(
      norm(`${prefix}.attn_norm.weight`, embedding),
      matrix(`${prefix}.attn_q.weight`, embedding, shape.heads * headDimension),
      matrix(`${prefix}.attn_k.weight`, embedding, shape.keyValueHeads * headDimension),
      matrix(`${prefix}.attn_v.weight`, embedding, shape.keyValueHeads * headDimension),
      matrix(`${prefix}.attn_output.weight`, shape.heads * headDimension, embedding),
      norm(`${prefix}.attn_q_norm.weight`, headDimension),
      norm(`${prefix}.attn_k_norm.weight`, headDimension),
      norm(`${prefix}.ffn_norm.weight`, embedding),
      matrix(`${prefix}.ffn_gate.weight`, embedding, shape.feedForwardLength),
      matrix(`${prefix}.ffn_up.weight`, embedding, shape.feedForwardLength),
      matrix(`${prefix}.ffn_down.weight`, shape.feedForwardLength, embedding),
    );
  }
  return { metadata, tensors };
}

function isControlLooking(text: string): boolean {
  return text.startsWith("<|") && text.endsWith("|>");
}

async function exists(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}
