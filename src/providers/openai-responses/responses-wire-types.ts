/**
 * The parts of OpenAI's Responses API wire format ctxkit reads and writes
 * (https://platform.openai.com/docs/api-reference/responses). Only this folder uses them.
 */

export type ResponsesJson = Record<string, unknown>;

/** A function tool as the Responses API takes it: flat, not nested under `function` as in Chat Completions. */
export interface ResponsesFunctionTool {
  type: "function";
  name: string;
  description: string;
  parameters: unknown;
  strict: false;
  /** Sent only to the model's tool search until the model loads it (needs a `tool_search` tool beside it). */
  defer_loading?: true;
}

/** The hosted tool search: the model searches the `defer_loading` functions itself. */
export interface ResponsesToolSearchTool {
  type: "tool_search";
}

export type ResponsesTool = ResponsesFunctionTool | ResponsesToolSearchTool;

/** `usage` of a completed response. `input_tokens` counts the whole prompt, cached tokens included. */
export interface ResponsesUsage {
  input_tokens?: number;
  input_tokens_details?: { cached_tokens?: number } | null;
  output_tokens?: number;
  output_tokens_details?: { reasoning_tokens?: number } | null;
}

/** `prompt_cache_retention`: "in-memory" (the default, minutes) or "24h" (extended caching). */
export type PromptCacheRetention = "in-memory" | "24h";
