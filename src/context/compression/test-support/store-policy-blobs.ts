import type { BlobStore, ToolMessage } from "../../../types/index.js";
import { toProcessedToolResult, type ContextEdit, type ContextPolicy, type ContextState, type ToolResultInfo } from "../../context-policy.js";

/** A policy driven the way the loop drives it: the blobs it hands back are stored in `blobStore`. */
export interface StoringPolicy {
  processToolResult(result: ToolMessage, info: ToolResultInfo): Promise<ToolMessage>;
  prepareContext(state: ContextState): Promise<ContextEdit[]>;
}

export function storingBlobs<P extends ContextPolicy>(policy: P, blobStore: BlobStore): Omit<P, keyof StoringPolicy> & StoringPolicy {
  return {
    ...policy,
    async processToolResult(result, info) {
      if (!policy.processToolResult) return result;
      const processed = toProcessedToolResult(await policy.processToolResult(result, info));
      for (const blob of processed.blobs) blobStore.put(blob.content);
      return processed.message;
    },
    async prepareContext(state) {
      const edits = (await policy.prepareContext?.(state)) ?? [];
      for (const blob of edits.flatMap((edit) => edit.blobs ?? [])) blobStore.put(blob.content);
      return edits;
    },
  };
}
