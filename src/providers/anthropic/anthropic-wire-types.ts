/**
 * The subset of the Anthropic Messages API wire format ctxkit sends
 * (https://docs.anthropic.com/en/api/messages). These types never leave src/providers/anthropic/.
 */

/** `ttl` is only written for "1h"; "5m" is the API default and is left implicit. */
export interface AnthropicCacheControl {
  type: "ephemeral";
  ttl?: "1h";
}

export interface AnthropicTextBlock {
  type: "text";
  text: string;
  cache_control?: AnthropicCacheControl;
}

/** Returned to the API unchanged: the signature is verified against the thinking text. */
export interface AnthropicThinkingBlock {
  type: "thinking";
  thinking: string;
  signature: string;
}

export interface AnthropicRedactedThinkingBlock {
  type: "redacted_thinking";
  data: string;
}

export interface AnthropicToolUseBlock {
  type: "tool_use";
  id: string;
  name: string;
  input: Record<string, unknown>;
  cache_control?: AnthropicCacheControl;
}

export interface AnthropicToolResultBlock {
  type: "tool_result";
  tool_use_id: string;
  content: string;
  is_error?: true;
  cache_control?: AnthropicCacheControl;
}

export type AnthropicContentBlock =
  | AnthropicTextBlock
  | AnthropicThinkingBlock
  | AnthropicRedactedThinkingBlock
  | AnthropicToolUseBlock
  | AnthropicToolResultBlock
  | AnthropicServerBlock;

/**
 * A block the API ran on its side (`server_tool_use`, `tool_search_tool_result`,
 * `web_search_tool_result`…), sent back exactly as it came.
 */
export interface AnthropicServerBlock {
  type: "server_tool_use" | "mcp_tool_use" | `${string}_tool_result`;
  [field: string]: unknown;
}

/** Content is always an array of blocks (never a bare string), so a later block can be appended without rewriting earlier bytes. */
export interface AnthropicMessage {
  role: "user" | "assistant";
  content: AnthropicContentBlock[];
}

export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: unknown;
  cache_control?: AnthropicCacheControl;
  /** Left out of the prompt until the tool-search server tool finds it. */
  defer_loading?: true;
}

/** Anthropic's server-side search over the deferred tools. */
export interface AnthropicToolSearchTool {
  type: "tool_search_tool_bm25_20251119" | "tool_search_tool_regex_20251119";
  name: "tool_search_tool_bm25" | "tool_search_tool_regex";
}

/** Raw `usage` object of `message_start.message.usage` and `message_delta.usage`. */
export interface AnthropicUsage {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  /** Split of the cache writes by lifetime. */
  cache_creation?: { ephemeral_5m_input_tokens?: number | null; ephemeral_1h_input_tokens?: number | null } | null;
  /**
   * With server-side compaction, one entry per sampling pass (`type: "compaction"` for the summary,
   * `"message"` for the answer). The top-level counts are the last pass only; billing is the sum.
   */
  iterations?: AnthropicUsageIteration[] | null;
}

export interface AnthropicUsageIteration {
  type?: string;
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
}
