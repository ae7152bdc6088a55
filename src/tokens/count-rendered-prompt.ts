import type { ModelRequest } from "../types/model-request.js";
import { renderChatTemplate } from "./render-chat-template.js";
import { toHfChatMessages } from "./to-hf-chat-messages.js";
import type { TokenCounter } from "./token-counter.js";

export interface RenderModelRequestOptions {
  /** Jinja source; Qwen3's template by default. */
  template?: string;
  /** Default true: servers append the assistant opening before generating. */
  addGenerationPrompt?: boolean;
  enableThinking?: boolean;
}

/** The prompt text a server running the template builds from this request (system, tools, messages, tail). */
export function renderModelRequest(request: ModelRequest, options: RenderModelRequestOptions = {}): string {
  return renderChatTemplate({
    template: options.template,
    messages: toHfChatMessages(request),
    tools: request.tools,
    addGenerationPrompt: options.addGenerationPrompt ?? true,
    enableThinking: options.enableThinking,
  });
}

/**
 * Exact prompt tokens of a request as a server running the template builds it (Qwen3's template by
 * default; pass `getTokenCounter("qwen3")` or the counter matching your template). It renders and
 * tokenizes the whole prompt each time; for per-turn budgeting use `createMessageTokenCache`, which
 * is within ~0.5% of this on τ-bench dialogues.
 */
export function countRenderedPrompt(
  request: ModelRequest,
  counter: TokenCounter,
  options: RenderModelRequestOptions = {},
): number {
  return counter.count(renderModelRequest(request, options));
}
