/**
 * The parts of OpenAI's Chat Completions request format that ctxkit sends
 * (https://platform.openai.com/docs/api-reference/chat/create). These types never leave this folder.
 * Key order in these shapes is the order written on the wire, which the prefix invariant depends on.
 */

export interface OpenAIWireToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

export type OpenAIWireMessage =
  | { role: "system"; content: string }
  | { role: "user"; content: string }
  | {
      role: "assistant";
      /** OpenAI: "Required unless tool_calls or function_call is specified" — null for tool-call-only turns. */
      content: string | null;
      reasoning_content?: string;
      /** OpenRouter: the reasoning items of the response, returned verbatim (signatures, encrypted data). */
      reasoning_details?: unknown[];
      tool_calls?: OpenAIWireToolCall[];
    }
  | { role: "tool"; tool_call_id: string; content: string };

export interface OpenAIWireTool {
  type: "function";
  function: { name: string; description: string; parameters: unknown };
}
