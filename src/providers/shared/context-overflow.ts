/**
 * How each vendor says "the prompt is too long". Matched against the error body so the loop can
 * compact and retry instead of failing.
 * - OpenAI: "This model's maximum context length is 128000 tokens. However, your messages resulted in …" (code context_length_exceeded)
 * - Anthropic: "prompt is too long: 208310 tokens > 200000 maximum"
 * - vLLM: "This model's maximum context length is 32768 tokens. However, you requested …"
 * - llama.cpp server: "the request exceeds the available context size, try increasing it" (exceed_context_size_error)
 * - Ollama: "prompt too long; exceeded max context length by N tokens"
 * - DeepSeek / Kimi / GLM (OpenAI-style): "maximum context length", "context_length_exceeded", "exceeded model token limit"
 */
const overflowPatterns: RegExp[] = [
  /context_length_exceeded/i,
  /maximum context length/i,
  /prompt is too long/i,
  /exceeds? the (available )?context (size|window|length)/i,
  /exceed_context_size_error/i,
  /prompt too long/i,
  /exceeded model token limit/i,
  /context window exceeded/i,
  /input is too long/i,
  /too many tokens/i,
];

export function isContextOverflowMessage(text: string): boolean {
  return overflowPatterns.some((pattern) => pattern.test(text));
}
