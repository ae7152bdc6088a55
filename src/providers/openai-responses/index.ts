export { createOpenAIResponses, type OpenAIResponsesSettings } from "./create-openai-responses.js";
export type { ResponsesReasoning } from "./build-responses-request-body.js";
export type { PromptCacheRetention } from "./responses-wire-types.js";
export type { OpenAIResponsesProvider } from "./create-openai-responses.js";
export type { ResponsesCompaction } from "./compact-responses.js";
export { createResponsesCompactPolicy, type ResponsesCompactPolicy, type ResponsesCompactPolicyOptions } from "./responses-compact-policy.js";
