import type { ToolMessage } from "../../types/index.js";
import type { CompressionSettings } from "./compression-options.js";
import type { CompressionStats } from "./compression-stats.js";
import { isCompressedMessage, isPreviewMessage } from "./markers.js";
import { removeNoise } from "./remove-noise.js";
import { createToolResultPreview } from "./tool-result-preview.js";

/** The preview of an over-budget result: a quarter of the budget, at most 1000 tokens. */
const PREVIEW_SHARE = 0.25;
const MAX_PREVIEW_TOKENS = 1000;

/**
 * Write-time layers 1 and 2: remove noise, then store a result over its tool's budget whole and
 * show a preview instead. Runs once per result, before it is frozen into the trajectory; the blob
 * holds the text after noise removal (noise is not worth recalling), which the preview's character
 * offsets refer to.
 */
export function budgetToolResult(result: ToolMessage, settings: CompressionSettings, stats: CompressionStats): ToolMessage {
  if (settings.exemptTools.includes(result.toolName)) return result;
  // Decided on metadata only: a result whose text merely starts with a marker is budgeted like any other.
  if (isCompressedMessage(result) || isPreviewMessage(result)) return result;
  const content = removeNoise(result.content);
  stats.noiseCharsRemoved += result.content.length - content.length;
  const tokens = settings.counter.count(content);
  const budget = settings.perToolBudgets[result.toolName] ?? settings.toolResultBudgetTokens;
  if (tokens <= budget) return content === result.content ? result : { ...result, content };

  const blobId = settings.blobs.put(content);
  const charsPerToken = content.length / Math.max(1, tokens);
  const previewTokens = Math.min(MAX_PREVIEW_TOKENS, Math.floor(budget * PREVIEW_SHARE));
  const preview = createToolResultPreview({ content, tokens, blobId, toolName: result.toolName, previewChars: Math.floor(previewTokens * charsPerToken) });
  stats.budgetedResults += 1;
  stats.tokensFreed += Math.max(0, tokens - settings.counter.count(preview));
  return { ...result, content: preview, meta: { ...result.meta, derived: { kind: "preview", blobId, originalChars: content.length } } };
}
