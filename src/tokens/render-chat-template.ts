import type { Template } from "@huggingface/jinja";
import { ConfigError } from "../types/errors.js";
import type { ToolDefinition } from "../types/tool.js";
import type { HfChatMessage } from "./hf-chat-message.js";
import { getQwen3ChatTemplate } from "./qwen3-chat-template.js";
import { loadPackage } from "./load-package.js";
import { toHfTools } from "./to-hf-tools.js";

export interface RenderChatTemplateOptions {
  /** Jinja source of the template; Qwen3's by default. */
  template?: string;
  messages: readonly HfChatMessage[];
  tools?: readonly ToolDefinition[];
  /** Append the opening of the assistant turn the model will write (what servers do). */
  addGenerationPrompt?: boolean;
  /** Qwen3's switch; left undefined unless given, as transformers does. */
  enableThinking?: boolean;
  /** Further template variables (`bos_token`, `eos_token`, ...) for templates that read them. */
  variables?: Record<string, unknown>;
}

/**
 * A parsed chat template. ctxkit's own type, so public declarations do not reference
 * @huggingface/jinja's (which do not typecheck under every user's compiler settings).
 */
export interface CompiledChatTemplate {
  render(context: Record<string, unknown>): string;
}

const compiledTemplates = new Map<string, CompiledChatTemplate>();
const MAX_COMPILED_TEMPLATES = 8;

/** Parses a template once; throws `template_invalid` when it is not valid Jinja. */
export function compileChatTemplate(source: string): CompiledChatTemplate {
  let template = compiledTemplates.get(source);
  if (template === undefined) {
    try {
      // Loaded on first use: the template engine is an optional peer dependency of the library.
      const { Template: TemplateClass } = loadPackage<{ Template: typeof Template }>("@huggingface/jinja");
      template = new TemplateClass(source) as CompiledChatTemplate;
    } catch (error) {
      throw new ConfigError(
        "template_invalid",
        `The chat template is not valid Jinja (${errorText(error)}). Check the template file.`,
        { cause: error },
      );
    }
    if (compiledTemplates.size >= MAX_COMPILED_TEMPLATES) compiledTemplates.clear();
    compiledTemplates.set(source, template);
  }
  return template;
}

/**
 * Renders a chat template to the exact prompt text an inference server feeds its tokenizer.
 * @huggingface/jinja reproduces Python Jinja2 as transformers configures it (`trim_blocks`,
 * `lstrip_blocks`, `tojson` with `ensure_ascii=False`), so the output is byte-identical to
 * `tokenizer.apply_chat_template(..., tokenize=False)`. One known difference: a float with an
 * integral value (`1.0`) in tool arguments or schemas prints as `1`, because JavaScript numbers do not
 * keep the distinction.
 */
export function renderChatTemplate(options: RenderChatTemplateOptions): string {
  const template = compileChatTemplate(options.template ?? getQwen3ChatTemplate());
  const context: Record<string, unknown> = {
    ...options.variables,
    messages: options.messages,
    // transformers passes `tools=None` / `documents=None` when there are none; templates test
    // `{% if tools %}` or `{% if tools is not none %}`. Servers omit an empty tool list the same way.
    tools: options.tools !== undefined && options.tools.length > 0 ? toHfTools(options.tools) : null,
    documents: null,
    add_generation_prompt: options.addGenerationPrompt ?? false,
  };
  if (options.enableThinking !== undefined) context.enable_thinking = options.enableThinking;
  try {
    return template.render(context);
  } catch (error) {
    throw new ConfigError(
      "template_render_failed",
      `The chat template could not render these messages (${errorText(error)}). ` +
        "Check that the template fits the model and that roles follow its rules.",
      { cause: error },
    );
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
