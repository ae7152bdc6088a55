import type { BudgetSpend, Usage } from "../types/index.js";
import type { LoadedSession } from "./loaded-session.js";

/** One model call the session recorded: what it used and which model answered it. */
export interface RecordedCall {
  usage: Usage;
  model: string;
}

/**
 * The calls of a loaded session with their models (from each usage record's request), then what
 * its sub-agents spent — recorded in their own session files, and on the parent's `task` results
 * (`meta.subAgent`), which is where a resumed budget finds it. Pass `log` to include them.
 */
export function recordedCalls(session: Pick<LoadedSession, "usage" | "requests"> & { log?: LoadedSession["log"] }): RecordedCall[] {
  const own = session.usage.map((record) => ({ usage: record.usage, model: session.requests[record.request]?.model ?? "" }));
  const children = (session.log ?? []).flatMap((message) => (message.meta.subAgent ? [{ usage: message.meta.subAgent.usage, model: message.meta.subAgent.model }] : []));
  return [...own, ...children];
}

/**
 * What a session has spent, counted the way a budget counts it (prompt tokens, cached ones included,
 * plus output tokens; cost by `costOf`): pass it as `createBudget({ spent })` so a resumed session
 * continues with what it already used. Pure.
 */
export function sessionSpend(calls: readonly RecordedCall[], costOf?: (usage: Usage, model: string) => number): BudgetSpend {
  let tokens = 0;
  let costUsd = 0;
  for (const call of calls) {
    tokens += call.usage.inputTokens + call.usage.outputTokens;
    costUsd += costOf?.(call.usage, call.model) ?? 0;
  }
  return { tokens, costUsd };
}
