// Context compression: pure policies applied between model calls through the ContextPolicy hooks.
export {
  compressionPolicyNames,
  createCompression,
  createCompressionPolicy,
  type CreateCompressionOptions,
  isCompressionPolicyName,
  type CompressionPolicy,
  type CompressionPolicyName,
} from "./create-compression-policy.js";
export type { CompressionOptions, CompressionSettings } from "./compression-options.js";
export { emptyCompressionStats, type CompressionStats } from "./compression-stats.js";
export { blobIdOf, createMemoryBlobStore, isBlobId, type BlobStore } from "./blob-store.js";
export { createRecallTool, type RecallArgs, type RecallToolOptions } from "./recall-tool.js";
export type { Summarizer, SummaryInput, SummarySource } from "./summarizer.js";
export { createDeterministicSummarizer } from "./deterministic-summarizer.js";
export { createModelSummarizer, summaryRequestFor, type ModelSummarizerOptions } from "./model-summarizer.js";
export { removeNoise } from "./remove-noise.js";
export { extractIdentifiers, extractErrorLines } from "./extract-identifiers.js";
export { COMPRESSED_MARKER, isCompressedMessage } from "./markers.js";
export { findSplitViolations } from "./conversation-units.js";
export { worthCompacting, type CompactionEconomics } from "./cache-economics.js";
