export { createPrefixGuard, describeCacheBreak, hashBody, type CacheBreak, type PrefixCheck, type PrefixGuard, type PrefixGuardOptions } from "./prefix-guard.js";
export { attributeWireOffset, type WirePlace } from "./attribute-wire-offset.js";
export { comparePromptTokens, createQwen3PromptTokens, type PromptPlace, type PromptTokenBreak, type PromptTokenComparison, type PromptTokens } from "../../tokens/prompt-tokens.js";
export { findLayerDifference, type LayerDifference } from "./find-cache-break.js";
export { toRequestLayers, visibleText, type LayerName, type RequestLayer } from "./request-layers.js";
