export { createOpenAIResponses, type OpenAIResponsesSettings } from "./create-openai-responses.js";
export type { ResponsesReasoning } from "./build-responses-request-body.js";
export type { PromptCacheRetention } from "./responses-wire-types.js";
