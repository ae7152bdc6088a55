import type { ReportedUsage } from "../imported-transcript.js";

/**
 * The reported usage of a call, unless every count in it is 0: some providers and proxies (local
 * servers, gateways that do not forward usage) send zeros for calls that certainly read a prompt.
 * Such a report says nothing; inspect counts the call's tokens itself and notes it.
 */
export function usableReportedUsage(usage: ReportedUsage | undefined): ReportedUsage | undefined {
  if (usage === undefined) return undefined;
  return isAllZero(usage) ? undefined : usage;
}

export function isAllZero(usage: ReportedUsage): boolean {
  const counts = [usage.promptTokens, usage.cachedTokens, usage.cacheWriteTokens, usage.completionTokens].filter((value) => value !== undefined);
  return counts.length > 0 && counts.every((value) => value === 0);
}
