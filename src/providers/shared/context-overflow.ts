/**
 * Whether a provider's error means "the prompt does not fit the model's context window", so the
 * loop can compact and retry instead of failing. Evidence is weighed in order of trust: the HTTP
 * status first, then the vendor's documented error code, then the wording (many OpenAI-compatible
 * servers have nothing else).
 */
export interface ProviderErrorEvidence {
  /** The HTTP status, when the error came with one (not for errors inside a 200 stream). */
  status?: number;
  /** The error body or message as the server sent it. */
  body: string;
}

/** Error bodies are matched only on their start: enough for every vendor's message, and bounded. */
const maximumInspectedCharacters = 16 * 1024;

/**
 * Documented error codes that mean overflow, read from `error.code` / `error.type`:
 * - OpenAI, Groq, DeepSeek: `code: "context_length_exceeded"`
 *   (https://platform.openai.com/docs/guides/error-codes; Groq's fixture: "Please reduce the length of
 *   the messages or completion." with that code)
 * - Anthropic: `type: "request_too_large"` with HTTP 413, "Request exceeds the maximum allowed number
 *   of bytes." (https://docs.anthropic.com/en/api/errors)
 * - llama.cpp server: `type: "exceed_context_size_error"` (tools/server/server.cpp)
 */
const overflowCodes = new Set(["context_length_exceeded", "request_too_large", "exceed_context_size_error", "model_context_window_exceeded"]);

/**
 * Wordings, each with where it was seen. Written to run in linear time: no two unbounded runs
 * around a literal.
 */
const overflowWordings: RegExp[] = [
  // OpenAI and vLLM: "This model's maximum context length is 128000 tokens. However, your messages resulted in …"
  /maximum context length is \d+ tokens/i,
  // Anthropic 400 invalid_request_error: "prompt is too long: 208310 tokens > 200000 maximum"
  /prompt is too long/i,
  // Gemini: "The input token count (1594712) exceeds the maximum number of tokens allowed (1048576)."
  /input token count \(?\d+\)? exceeds the maximum number of tokens/i,
  // TGI / Together / SageMaker: "Input validation error: `inputs` tokens + `max_new_tokens` must be <= 4096. Given: …"
  // and "`inputs` must have less than 1024 tokens. Given: 2000" (text-generation-inference router/src/validation.rs)
  /`inputs` tokens \+ `max_new_tokens` must be <= \d+/i,
  /`inputs` must have less than \d+ tokens/i,
  // SGLang: "The input (40000 tokens) is longer than the model's context length (32768 tokens)."
  /is longer than the model'?s context length/i,
  // vLLM (V1): "The decoder prompt (length 40000) is longer than the maximum model length of 32768."
  /longer than the maximum model length/i,
  // xAI: "This model's maximum prompt length is 131072 but the request contains 537812 tokens."
  /maximum prompt length is \d+/i,
  // LM Studio: "The number of tokens to keep from the initial prompt is greater than the context length"
  // and "… the model is loaded with context length of only 4096 tokens"
  /greater than the context length/i,
  /context length of only \d+ tokens/i,
  // llama.cpp server: "the request exceeds the available context size, try increasing it"
  /exceeds the available context size/i,
  // Ollama: "prompt too long; exceeded max context length by 18 tokens"
  /prompt too long; exceeded max context length/i,
  // Mistral: "Prompt contains 40000 tokens and 0 draft tokens, too large for model with 32768 maximum context length"
  /too large for model with \d+ maximum context length/i,
  // Groq, Cerebras and OpenAI's older text: "Please reduce the length of the messages or completion."
  /reduce the length of the messages/i,
  // Kimi / Moonshot: "Invalid request: Your request exceeded model token limit: 131072"
  /exceeded model token limit/i,
  // Bedrock (Anthropic models): "Input is too long for requested model."
  /input is too long for requested model/i,
  // OpenAI Responses API and Azure: "Your input exceeds the context window of this model."
  /exceeds the context window/i,
  // Cohere v1: "too many tokens: total number of tokens in the prompt cannot exceed 4081 - received 5000"
  // and "… total number of tokens (prompt and prediction) cannot exceed 2048 - received 6354"
  // (cohere-ai/sandbox-topically#4). The colon after "too many tokens" tells it from rate limits.
  /too many tokens: total number of tokens\b.{0,40}?cannot exceed \d+/i,
  // MiniMax: "context window exceeds limit"
  /context window exceeds limit/i,
  // The code spelled in a message, as proxies (LiteLLM, OpenRouter) pass it on.
  /context_length_exceeded/i,
  // The scaffold's (f806b40) broader wordings, narrowed away in 7af65b6: every wording that ever
  // worked keeps working (fixtures/overflow-wordings.json holds a sample of each). Rate limits that
  // say "too many tokens" are told apart before these run (the 429 status, `rateLimitWording`).
  /maximum context length/i,
  /exceeds? the (?:available )?context (?:size|window|length)/i,
  /prompt too long/i,
  /context window exceeded/i,
  /input is too long/i,
  /too many tokens/i,
  /exceed_context_size_error/i,
];

/**
 * Rate and quota limits that mention tokens: "Rate limit reached … on tokens per min (TPM)",
 * "Too many tokens per minute", Bedrock's "Too many tokens, please wait before trying again". They
 * are retryable as they are, and compacting would not help.
 */
const rateLimitWording = /rate.?limit|per min(?:ute)?\b|per day|\bTPM\b|\bRPM\b|quota|too many requests|throttl|please wait before trying again/i;

export function isContextOverflow(evidence: ProviderErrorEvidence): boolean {
  const { status } = evidence;
  // 429 is a rate limit whatever the body says; a 5xx is the server failing, not the prompt.
  if (status === 429 || (status !== undefined && status >= 500)) return false;
  // 413 Payload Too Large: Anthropic's request_too_large, and proxies in front of any server.
  if (status === 413) return true;
  const body = evidence.body.slice(0, maximumInspectedCharacters);
  if (hasOverflowCode(body)) return true;
  if (rateLimitWording.test(body)) return false;
  return overflowWordings.some((pattern) => pattern.test(body));
}

/** For error messages without a status (an error event inside a stream). */
export function isContextOverflowMessage(text: string): boolean {
  return isContextOverflow({ body: text });
}

function hasOverflowCode(body: string): boolean {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return false;
  }
  const error = isObject(parsed) && isObject(parsed.error) ? parsed.error : parsed;
  if (!isObject(error)) return false;
  return [error.code, error.type].some((value) => typeof value === "string" && overflowCodes.has(value));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
