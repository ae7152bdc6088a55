// The `ctxkit/inspect` entry: see what a model saw. Import recorded transcripts (ctxkit sessions,
// OpenAI request logs, Claude Code, Codex, mini-swe-agent, τ-bench, …), analyse each call's reusable
// prefix and findings, build a usage ledger; count and render prompts exactly (Qwen3 and o200k
// tokenizers, chat templates); check request bodies with the prefix guard.
export { inspectFiles, type InspectFilesOptions, type InspectReport } from "./inspect/inspect-files.js";
export { importTranscript, importTranscriptFiles, detectTranscriptFormat } from "./inspect/importers/index.js";
export { TRANSCRIPT_FORMATS, type ImportedCall, type ImportedTranscript, type ImportResult, type TranscriptFormat } from "./inspect/imported-transcript.js";
export { createTranscriptAnalyzer } from "./inspect/analysis/index.js";
export { detectFindings } from "./inspect/findings/index.js";
export { buildUsageLedger, type UsageLedger } from "./session/usage-ledger.js";
export { createPrefixGuard, describeCacheBreak, hashBody, type CacheBreak, type PrefixCheck, type PrefixGuard, type PrefixGuardOptions } from "./context/prefix-guard/index.js";
export { verifyRebuiltRequest } from "./session/rebuild-request.js";
export { createQwen3TokenCounter } from "./tokens/qwen3-token-counter.js";
export { createTiktokenCounter, type TiktokenEncodingName } from "./tokens/tiktoken-token-counter.js";
export { createEstimatedTokenCounter, type EstimatedTokenCounterOptions } from "./tokens/estimated-token-counter.js";
export { renderChatTemplate, compileChatTemplate, type RenderChatTemplateOptions } from "./tokens/render-chat-template.js";
export { getQwen3ChatTemplate } from "./tokens/qwen3-chat-template.js";
export { loadChatTemplateFile, type LoadChatTemplateFileOptions } from "./tokens/load-chat-template-file.js";
export { countRenderedPrompt, renderModelRequest, type RenderModelRequestOptions } from "./tokens/count-rendered-prompt.js";
export { explainCacheMiss, type CacheCallObservation, type CacheMissPrices } from "./context/cache-miss/explain-cache-miss.js";
