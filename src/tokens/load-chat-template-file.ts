import { readFile } from "node:fs/promises";
import { ConfigError } from "../types/errors.js";
import { compileChatTemplate } from "./render-chat-template.js";
import { stripByteOrderMark } from "../types/byte-order-mark.js";

export interface LoadChatTemplateFileOptions {
  /** For configs with several named templates (`[{name, template}]`); default "default". */
  name?: string;
}

/**
 * Reads a user's chat template: a `.jinja` file (as Hugging Face repos ship `chat_template.jinja`),
 * or a `tokenizer_config.json` / `chat_template.json` with a `chat_template` field. The template is
 * parsed before it is returned, so a broken file fails here with `template_invalid`, not mid-run.
 */
export async function loadChatTemplateFile(path: string, options: LoadChatTemplateFileOptions = {}): Promise<string> {
  let text: string;
  try {
    text = stripByteOrderMark(await readFile(path, "utf8"));
  } catch (error) {
    throw new ConfigError(
      "template_invalid",
      `Could not read the chat template file ${path} (${error instanceof Error ? error.message : String(error)}). ` +
        "Pass the path of a .jinja file or of a tokenizer_config.json.",
      { cause: error },
    );
  }
  const template = looksLikeJson(path, text) ? templateFromConfig(path, text, options.name ?? "default") : text;
  compileChatTemplate(template);
  return template;
}

function looksLikeJson(path: string, text: string): boolean {
  // A Jinja template may start with "{%" or "{{" too; a JSON object starts with `{"`.
  return path.endsWith(".json") || /^\s*\{\s*"/.test(text);
}

function templateFromConfig(path: string, text: string, name: string): string {
  let config: unknown;
  try {
    config = JSON.parse(text);
  } catch (error) {
    throw new ConfigError("template_invalid", `${path} is not valid JSON. Fix the file or pass the .jinja template itself.`, {
      cause: error,
    });
  }
  const chatTemplate = (config as { chat_template?: unknown } | null)?.chat_template;
  if (typeof chatTemplate === "string") return chatTemplate;
  if (Array.isArray(chatTemplate)) {
    const named = chatTemplate.find(
      (entry: unknown) => (entry as { name?: unknown } | null)?.name === name,
    ) as { template?: unknown } | undefined;
    if (typeof named?.template === "string") return named.template;
    const names = chatTemplate.map((entry: unknown) => String((entry as { name?: unknown } | null)?.name)).join(", ");
    throw new ConfigError("template_invalid", `${path} has no chat template named '${name}'. Available: ${names}.`);
  }
  throw new ConfigError(
    "template_invalid",
    `${path} has no "chat_template" string. Use the model's tokenizer_config.json or chat_template.jinja.`,
  );
}
