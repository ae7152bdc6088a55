import { explainCacheMiss, type CacheCallObservation } from "../../context/cache-miss/explain-cache-miss.js";
import type { NamedPricing } from "../../session/load-pricing.js";
import type { ImportedCall, ImportedTranscript } from "../imported-transcript.js";
import type { AnalyzedCall } from "./analyzed-transcript.js";
import { usableReportedUsage } from "./usable-reported-usage.js";

export interface TranscriptMissOptions {
  /**
   * The cache lifetime assumed until a call reports 1-hour writes (default 5 minutes: Anthropic's
   * default, OpenAI's shortest), for calls whose transcript does not record the lifetime in force.
   */
  lifetimeMs?: number;
}

const fiveMinutes = 5 * 60 * 1000;
const oneHour = 60 * 60 * 1000;

/**
 * Sets `miss` on every call whose reported cached tokens fall short of what the previous prompt
 * left reusable, naming why (see `explainCacheMiss`). Needs the provider's own usage: calls without
 * it are left alone. What was reusable is the previous call's prompt as the provider counted it
 * (less its tail, scaled from inspect's count): a transcript that does not record the system
 * prompt or the tools still has them counted that way.
 */
export function explainTranscriptMisses(transcript: ImportedTranscript, calls: AnalyzedCall[], prices: (index: number) => NamedPricing | undefined, options: TranscriptMissOptions = {}): void {
  let previous: CacheCallObservation | undefined;
  let lifetimeMs = options.lifetimeMs ?? fiveMinutes;
  for (const [index, call] of calls.entries()) {
    const imported = transcript.calls[index];
    const reported = usableReportedUsage(imported?.reportedUsage);
    // Once a call writes 1-hour entries the session runs with the 1-hour lifetime (Claude Code's setting is per session).
    if ((reported?.cacheWrite1hTokens ?? 0) > 0) lifetimeMs = oneHour;
    if (imported === undefined || reported?.promptTokens === undefined || reported.cachedTokens === undefined) {
      previous = undefined;
      continue;
    }
    const before = calls[index - 1];
    const beforeReported = before?.reportedPromptTokens ?? undefined;
    const tailShare = before !== undefined && before.promptTokens > 0 ? before.tailTokens / before.promptTokens : 0;
    const expected = beforeReported === undefined || beforeReported === null ? 0 : Math.min(Math.round(beforeReported * (1 - tailShare)), reported.promptTokens);
    const firstBreak = call.breaks[0];
    const sentAtMs = sentAt(imported);
    const model = imported.model ?? transcript.model;
    const edits = reported.serverEdits ?? [];
    // A transcript that recorded the lifetime in force (a ctxkit session) is judged by it; none
    // (a local server) means no gap reads as an expiry.
    const recorded = imported.cacheLifetimeMs;
    const callLifetimeMs = recorded === undefined ? lifetimeMs : recorded === null ? Number.POSITIVE_INFINITY : recorded;
    const observation: CacheCallObservation = {
      ...(sentAtMs === undefined ? {} : { sentAtMs }),
      ...(model === undefined ? {} : { model }),
      ...(imported.effort === undefined ? {} : { effort: imported.effort }),
      reusableTokens: Math.max(0, expected),
      cachedTokens: reported.cachedTokens,
      ...(reported.cacheWriteTokens === undefined ? {} : { cacheWriteTokens: reported.cacheWriteTokens }),
      ...(reported.cacheWrite1hTokens === undefined ? {} : { cacheWrite1hTokens: reported.cacheWrite1hTokens }),
      ...(firstBreak === undefined
        ? {}
        : { prefixBreak: { layer: firstBreak.layer, index: firstBreak.index, firstDifferingToken: firstBreak.firstDifferingToken, declared: firstBreak.declared, ...(firstBreak.reason === undefined ? {} : { reason: firstBreak.reason }) } }),
      serverEditsBefore: edits.filter((edit) => edit !== "compaction"),
      serverCompacted: edits.includes("compaction"),
      lifetimeMs: callLifetimeMs,
    };
    const miss = explainCacheMiss(previous, observation, prices(index)?.pricing);
    if (miss !== undefined) call.miss = miss;
    previous = observation;
  }
}

/** When the call was sent: the newest message it carries (the person's turn or the tool results it answers). */
function sentAt(call: ImportedCall): number | undefined {
  let newest: number | undefined;
  for (const message of [...call.request.messages, ...(call.request.tail ? [call.request.tail] : [])]) {
    const time = Date.parse(message.meta.createdAt);
    if (Number.isFinite(time) && (newest === undefined || time > newest)) newest = time;
  }
  return newest;
}
