// Experiment 2-3 of the seed: the six context-management modes and what they do to prompt caching.
export { buildModeRequests, contextModes, expectedBreakLayer, lastMessagesKeepingPairs, slidingWindowSize, type ContextMode, type Dialogue } from "./context-modes.js";
export { locateTauBenchCorpus, loadTauBenchDialogues, type LoadedDialogues, type TauBenchFiles, type TauBenchLocation } from "./tau-bench-dialogues.js";
export { createPromptPieceTokenizer, sharedPromptPrefix, type PromptPieces, type PromptPieceTokenizer, type SharedPrefix } from "./prompt-piece-tokenizer.js";
export { anthropicCacheOutcome, anthropicPromptCost, openAICacheOutcome, openAIPromptCost, type MeasuredCall } from "./prompt-cache-cost.js";
export { runOfflineKvCacheBench, type OfflineKvCacheBenchOptions, type OfflineKvCacheBenchResult, type OfflineModeResult } from "./run-offline-kv-cache-bench.js";
export { runLiveKvCacheBench, type LiveKvCacheBenchOptions, type LiveKvCacheBenchResult, type LiveModeResult } from "./run-live-kv-cache-bench.js";
export { formatEngineKvCacheReport, formatLiveKvCacheReport, formatOfflineKvCacheReport } from "./format-kv-cache-report.js";
export { firstCalls, runEngineKvCacheBench, type EngineKvCacheBenchOptions, type EngineKvCacheBenchResult, type EngineModeResult } from "./run-engine-kv-cache-bench.js";
