export { createOpenAIResponses, type OpenAIResponsesSettings } from "./create-openai-responses.js";
export type { ResponsesReasoning } from "./build-responses-request-body.js";
export type { PromptCacheRetention } from "./responses-wire-types.js";
export type { OpenAIResponsesProvider } from "./create-openai-responses.js";
export type { ResponsesCompaction } from "./compact-responses.js";
// The policy lives with the other policies (src/context, also on `ctxkit/policies`); re-exported here
// because this subpath shipped it first.
export { createResponsesCompactPolicy, type ResponsesCompactPolicy, type ResponsesCompactPolicyOptions } from "../../context/server-compaction/responses-compact-policy.js";
