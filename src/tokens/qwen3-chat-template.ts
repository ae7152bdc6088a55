import { ConfigError } from "../types/errors.js";
import { readQwen3TokenizerConfig } from "./qwen3-tokenizer-files.js";

let qwen3ChatTemplate: string | undefined;

/**
 * Qwen3's chat template, read from Qwen3's `tokenizer_config.json` (shipped in data/qwen3)
 * (the hybrid-thinking template of the Qwen3 dense and MoE models, with `enable_thinking`).
 */
export function getQwen3ChatTemplate(): string {
  if (qwen3ChatTemplate === undefined) {
    const config = readQwen3TokenizerConfig();
    if (typeof config.chat_template !== "string") {
      throw new ConfigError(
        "dependency_missing",
        "ctxkit's data/qwen3/tokenizer_config.json has no chat_template. Reinstall ctxkit " +
          "or pass a template with loadChatTemplateFile().",
      );
    }
    qwen3ChatTemplate = config.chat_template;
  }
  return qwen3ChatTemplate;
}
