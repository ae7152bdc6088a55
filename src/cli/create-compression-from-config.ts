import { join } from "node:path";
import { createCompressionPolicy, type CompressionPolicy } from "../context/compression/index.js";
import { createFileBlobStore } from "../session/blob-store.js";
import { findModelPricing } from "../session/pricing.js";
import type { SessionStore } from "../session/index.js";
import { createRecallTool } from "../tools/recall/index.js";
import type { Tool } from "../tools/tool.js";
import type { Message } from "../types/index.js";
import type { ResolvedConfig } from "./resolve-config.js";

/** Used when neither `--context-window` nor the config says: the common size of current API models. */
export const defaultContextWindow = 128_000;

export interface ConfiguredCompression {
  policy: CompressionPolicy;
  /** `recall`, so the model can get back anything compressed. */
  recallTool: Tool;
}

/**
 * The compression policy a command runs with (`--compression`, default `ctxkit`) and its `recall`
 * tool, with blobs under `<data-dir>/blobs/` so previews and stubs stay recallable across restarts.
 * Recall by message id reads the session log, which keeps every original. Undefined for `none`.
 */
export function createCompressionFromConfig(config: ResolvedConfig, store: SessionStore, sessionId: () => string | undefined): ConfiguredCompression | undefined {
  if (config.compression === "none") return undefined;
  const blobStore = createFileBlobStore(join(config.dataDir, "blobs"));
  // α (cached ÷ uncached input price) for the cache-economics rule, from the pricing catalog when the model is listed.
  const pricing = config.model ? findModelPricing(config.model) : undefined;
  const policy = createCompressionPolicy(config.compression, {
    contextWindow: config.contextWindow ?? defaultContextWindow,
    blobStore,
    ...(pricing && pricing.input > 0 ? { cachedPriceRatio: pricing.cacheRead / pricing.input } : {}),
  });
  const lookupMessage = async (id: string): Promise<Message | undefined> => {
    const current = sessionId();
    return current === undefined ? undefined : (await store.load(current)).log.find((message) => message.meta.id === id);
  };
  return { policy, recallTool: createRecallTool({ blobStore, lookupMessage }) as unknown as Tool };
}
