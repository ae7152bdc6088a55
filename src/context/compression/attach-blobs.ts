import type { Message, ToolMessage } from "../../types/index.js";
import { toProcessedToolResult, type ContextEdit, type ContextPolicy, type ContextPreparer, type ProcessedToolResult } from "../context-policy.js";
import type { BlobCollector } from "./blob-store.js";
import { blobIdsOfMessage } from "./markers.js";

/**
 * Hands the loop the blobs a compression policy's decisions point to. The policy's steps put
 * originals into `collector` as they plan (candidate plans too); what is returned with an edit or a
 * processed result is exactly the blobs its messages' metadata names — a discarded candidate stores
 * nothing. Runs are sequential (the loop awaits each hook), so one collector per policy is enough.
 */
export function attachBlobs<P extends ContextPolicy>(policy: P, collector: BlobCollector): P {
  const prepare = policy.prepareContext?.bind(policy);
  const process = policy.processToolResult?.bind(policy);
  const prepareContext: ContextPreparer | undefined = prepare
    ? async (state) => {
        collector.take(new Set());
        const edits = (await prepare(state)) ?? [];
        const wanted = new Set(edits.flatMap((edit) => edit.messages.flatMap(blobIdsOfMessage)));
        const blobs = collector.take(wanted);
        return blobs.length === 0 ? edits : withBlobs(edits, blobs);
      }
    : undefined;
  const processToolResult = process
    ? async (result: ToolMessage, info: Parameters<NonNullable<ContextPolicy["processToolResult"]>>[1]): Promise<ProcessedToolResult> => {
        collector.take(new Set());
        const processed = toProcessedToolResult(await process(result, info));
        const blobs = collector.take(new Set(blobIdsOfMessage(processed.message as Message)));
        return { message: processed.message, blobs: [...processed.blobs, ...blobs] };
      }
    : undefined;
  return { ...policy, ...(prepareContext ? { prepareContext } : {}), ...(processToolResult ? { processToolResult } : {}) };
}

/** The blobs go with the first edit: the loop stores them before it records any of the edits. */
function withBlobs(edits: ContextEdit[], blobs: ContextEdit["blobs"]): ContextEdit[] {
  const [first, ...rest] = edits;
  return first === undefined ? edits : [{ ...first, blobs: [...(first.blobs ?? []), ...(blobs ?? [])] }, ...rest];
}
