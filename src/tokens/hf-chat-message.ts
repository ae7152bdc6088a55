/**
 * Chat messages in the shape Hugging Face chat templates read (`tokenizer.apply_chat_template`, and
 * vLLM / SGLang after they parse an OpenAI request). Templates index these fields by name, so the
 * snake_case names are part of the contract.
 */
export interface HfToolCall {
  id?: string;
  type: "function";
  /**
   * `arguments` is the parsed object: vLLM runs `json.loads` on the wire string before rendering, and
   * Qwen3's template re-serialises it with `tojson`. A string is rendered verbatim (invalid JSON).
   */
  function: { name: string; arguments: unknown };
}

export interface HfAssistantMessage {
  role: "assistant";
  content: string;
  /** Read by Qwen3, DeepSeek, Kimi and GLM templates; others ignore it. */
  reasoning_content?: string;
  tool_calls?: HfToolCall[];
}

export type HfChatMessage =
  | { role: "system"; content: string }
  | { role: "user"; content: string }
  | HfAssistantMessage
  | { role: "tool"; content: string; tool_call_id?: string; name?: string };

export interface HfTool {
  type: "function";
  function: { name: string; description: string; parameters: Record<string, unknown> };
}
