// The tokens layer: exact tokenizers (Qwen3, o200k, cl100k), a calibrated estimator for other models,
// chat-template rendering (Qwen3's by default) and incremental token counting. Depends only on src/types.
export type { TokenCounter, TokenCounterName } from "./token-counter.js";
export { createQwen3TokenCounter } from "./qwen3-token-counter.js";
export { createTiktokenCounter, type TiktokenEncodingName } from "./tiktoken-token-counter.js";
export {
  createEstimatedTokenCounter,
  estimateTokens,
  estimateTokensWith,
  ESTIMATOR_COEFFICIENTS,
  type EstimatorCoefficients,
  type EstimatedTokenCounterOptions,
  type EstimatorProfile,
} from "./estimated-token-counter.js";
export { extractTokenFeatures, TOKEN_FEATURE_NAMES, type TokenFeatures } from "./estimate-token-features.js";
export { getTokenCounter } from "./get-token-counter.js";
export type { HfAssistantMessage, HfChatMessage, HfTool, HfToolCall } from "./hf-chat-message.js";
export { renderChatTemplate, compileChatTemplate, type RenderChatTemplateOptions } from "./render-chat-template.js";
export { getQwen3ChatTemplate } from "./qwen3-chat-template.js";
export { loadChatTemplateFile, type LoadChatTemplateFileOptions } from "./load-chat-template-file.js";
export { toHfChatMessages, toHfChatMessage, systemTextOf } from "./to-hf-chat-messages.js";
export { toHfTools } from "./to-hf-tools.js";
export { toPythonJson } from "./python-json.js";
export {
  qwen3PrefixHazards,
  lastQueryIndex,
  type Qwen3PrefixHazard,
  type Qwen3PrefixHazardOptions,
} from "./qwen3-prefix-hazards.js";
export { createMessageTokenCache, type MessageOverhead, type MessageTokenCache } from "./message-token-cache.js";
export { countRenderedPrompt, renderModelRequest, type RenderModelRequestOptions } from "./count-rendered-prompt.js";
export { commonPrefixLength, commonPrefixTokens } from "./common-prefix-tokens.js";
export {
  createSegmentTokenizer,
  sharedPrefixTokens,
  sharedSegmentPrefix,
  type SegmentTokenizer,
  type SegmentedTokens,
  type TokenizedSegment,
} from "./segmented-prompt-tokens.js";
export { createIncrementalQwen3Renderer, type IncrementalQwen3Renderer, type RenderedPromptPiece } from "./incremental-qwen3-renderer.js";
