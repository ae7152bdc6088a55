/**
 * Vendors' error responses as recorded in public code and issues (each names its source): ones that
 * mean "the prompt does not fit" and look-alikes that do not. Shared by the unit test of
 * `isContextOverflow` and the hardening benchmark, which sends them through loopback HTTP.
 */
export type OverflowErrorSample = [source: string, status: number | undefined, body: string];

const json = (error: Record<string, unknown>) => JSON.stringify({ error });

export const overflows: OverflowErrorSample[] = [
  ["OpenAI (error-codes guide)", 400, json({ message: "This model's maximum context length is 128000 tokens. However, your messages resulted in 130532 tokens.", type: "invalid_request_error", code: "context_length_exceeded" })],
  ["Anthropic 413 (api/errors)", 413, JSON.stringify({ type: "error", error: { type: "request_too_large", message: "Request exceeds the maximum allowed number of bytes." } })],
  ["Anthropic 400", 400, JSON.stringify({ type: "error", error: { type: "invalid_request_error", message: "prompt is too long: 208310 tokens > 200000 maximum" } })],
  ["Gemini (Vertex AI error pattern in pkdone/paul-genai-test-tools-ts)", 400, json({ code: 400, message: "The input token count (1594712) exceeds the maximum number of tokens allowed (1048576).", status: "INVALID_ARGUMENT" })],
  ["TGI / Together (text-generation-inference validation.rs)", 422, json({ message: "Input validation error: `inputs` tokens + `max_new_tokens` must be <= 4097. Given: 3974 `inputs` tokens and 1024 `max_new_tokens`", type: "invalid_request_error" })],
  ["TGI input length (validation.rs)", 422, "Input validation error: `inputs` must have less than 1024 tokens. Given: 2000"],
  ["SGLang (pi-mono overflow patterns)", 400, json({ message: "The input (40000 tokens) is longer than the model's context length (32768 tokens).", type: "BadRequestError" })],
  ["vLLM V1", 400, json({ message: "The decoder prompt (length 40000) is longer than the maximum model length of 32768.", type: "BadRequestError" })],
  ["vLLM (OpenAI wording)", 400, json({ message: "This model's maximum context length is 32768 tokens. However, you requested 33000 tokens (32000 in the messages, 1000 in the completion).", type: "BadRequestError", code: 400 })],
  ["xAI through LiteLLM (recorded in an issue fixture)", 400, 'XaiException - {"code":"invalid-argument","error":"This model\'s maximum prompt length is 500000 but the request contains 637815 tokens."}'],
  ["LM Studio (pi-mono: 'greater than the context length')", 400, json({ message: "The number of tokens to keep from the initial prompt is greater than the context length." })],
  ["llama.cpp server (server.cpp)", 400, json({ code: 400, message: "the request exceeds the available context size, try increasing it", type: "exceed_context_size_error" })],
  ["Ollama", 400, json({ message: "prompt too long; exceeded max context length by 18 tokens" })],
  ["Mistral (pi-mono port: 'too large for model with N maximum context length')", 400, json({ message: "Prompt contains 40000 tokens and 0 draft tokens, too large for model with 32768 maximum context length", type: "invalid_request_error" })],
  ["Groq", 400, json({ message: "Please reduce the length of the messages or completion.", type: "invalid_request_error", param: "messages", code: "context_length_exceeded" })],
  ["Kimi / Moonshot", 400, json({ message: "Invalid request: Your request exceeded model token limit: 131072", type: "invalid_request_error" })],
  ["Bedrock", 400, json({ message: "Input is too long for requested model." })],
  ["an error event inside a stream (no status)", undefined, json({ message: "prompt is too long: 250000 tokens > 200000 maximum" })],
];

export const notOverflows: OverflowErrorSample[] = [
  ["OpenAI 429 TPM", 429, json({ message: "Rate limit reached for gpt-4o on tokens per min (TPM): Limit 30000, Used 29000, Requested 2000.", type: "tokens", code: "rate_limit_exceeded" })],
  ["a 429 that says too many tokens", 429, json({ message: "Too many tokens per minute" })],
  ["a 400 that is a rate limit in words (Bedrock throttling)", 400, "Throttling error: Too many tokens, please wait before trying again"],
  ["a 5xx mentioning a context window", 503, json({ message: "maximum context length is 8192 tokens (upstream crashed)" })],
  ["TGI max_new_tokens alone", 422, "Input validation error: `max_new_tokens` must be <= 4096. Given: 10000"],
  ["an unrelated 400", 400, json({ message: "Invalid 'tools': array too long.", type: "invalid_request_error" })],
];
