import type { OpenAICompatibleVendor } from "./vendor-profiles.js";

/**
 * Whether a model is one of OpenAI's reasoning models (gpt-5 family, o1/o3/o4), which reject two
 * Chat Completions parameters that older models take. Recorded answers (HTTP 400):
 * - "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead."
 * - "Unsupported value: 'temperature' does not support 0 with this model. Only the default (1) value is supported."
 * Only OpenAI's own API is matched: OpenRouter, vLLM and the others accept `max_tokens` for any model
 * and translate it themselves. `gpt-5-chat*` is the non-reasoning chat model and takes both.
 */
export function isOpenAIReasoningModel(vendor: OpenAICompatibleVendor | undefined, model: string): boolean {
  if (vendor !== "openai") return false;
  const name = model.toLowerCase().slice(model.lastIndexOf("/") + 1);
  if (/^gpt-5[^-]*-chat/.test(name)) return false;
  return /^gpt-5/.test(name) || /^o[134](-|$)/.test(name);
}
