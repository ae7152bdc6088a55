import { ContextError } from "../../types/index.js";

/**
 * Stops compaction loops (production data: many sessions get stuck compacting again and again
 * without getting under the limit; Codex stops after 3). A compaction fails when it finds nothing
 * to compress, when its projected size is still over the trigger, or when the next request —
 * whose prompt size the provider reports — is still over it. After `limit` failures in a row the
 * next compaction throws `compaction_failed`, which ends the run with that reason.
 */
export interface CompactionBreaker {
  /** Settles the previous compaction with the prompt size the provider reported for the next call. */
  observe(promptTokens: number | undefined, triggerTokens: number): void;
  /** Records a compaction: `ok` when its projection got under the trigger (then it waits for `observe`). */
  record(ok: boolean): void;
  /** Throws when the limit of consecutive failures is reached. */
  assertClosed(): void;
  readonly failures: number;
}

export function createCompactionBreaker(limit: number): CompactionBreaker {
  let failures = 0;
  let pending = false;
  return {
    observe(promptTokens, triggerTokens) {
      if (!pending) return;
      pending = false;
      // Without a usage report the projection is all there is to go by.
      failures = promptTokens !== undefined && promptTokens >= triggerTokens ? failures + 1 : 0;
    },
    record(ok) {
      if (ok) pending = true;
      else failures += 1;
    },
    assertClosed() {
      if (failures < limit) return;
      throw new ContextError(
        "compaction_failed",
        `Context compaction failed ${failures} times in a row: the context stays over the compaction threshold even after compressing ` +
          "(the first request or the newest turns alone may be too large). Start a new session, shorten the request, " +
          "or use a model with a larger context window.",
      );
    },
    get failures() {
      return failures;
    },
  };
}
