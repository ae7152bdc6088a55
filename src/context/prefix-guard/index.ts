export { createPrefixGuard, describeCacheBreak, type CacheBreak, type PrefixCheck, type PrefixGuard, type PrefixGuardOptions } from "./prefix-guard.js";
export { findLayerDifference, type LayerDifference } from "./find-cache-break.js";
export { toRequestLayers, visibleText, type LayerName, type RequestLayer } from "./request-layers.js";
