import type { ModelRequest } from "../../types/model-request.js";
import { commonPrefixLength } from "../../tokens/common-prefix-tokens.js";
import { renderChatTemplate } from "../../tokens/render-chat-template.js";
import { toHfChatMessages } from "../../tokens/to-hf-chat-messages.js";
import type { SerializedRequest } from "../provider.js";

export interface LlamaPromptSettings {
  template: string;
  enableThinking?: boolean;
}

/** The prompt text the engine tokenizes: the model's chat template over the request, with the generation prompt. */
export function renderLlamaPrompt(settings: LlamaPromptSettings, request: ModelRequest): string {
  return renderChatTemplate({
    template: settings.template,
    messages: toHfChatMessages(request),
    tools: request.tools,
    addGenerationPrompt: true,
    ...(settings.enableThinking !== undefined ? { enableThinking: settings.enableThinking } : {}),
  });
}

/**
 * The wire form of an embedded engine is its prompt text. The reusable prefix is what the template
 * renders for everything before the tail, without the generation prompt.
 */
export function serializeLlamaPrompt(settings: LlamaPromptSettings, request: ModelRequest): SerializedRequest {
  const body = renderLlamaPrompt(settings, request);
  const { tail: _tail, ...withoutTail } = request;
  const prefix = renderChatTemplate({
    template: settings.template,
    messages: toHfChatMessages(withoutTail),
    tools: request.tools,
    addGenerationPrompt: false,
  });
  return { body, prefixLength: commonPrefixLength(prefix, body) };
}
