import type { CacheMiss, CacheMissCause } from "../../types/index.js";

/** The prices a miss is re-billed at, in USD per million tokens (a `ModelPricing` fits). */
export interface CacheMissPrices {
  input: number;
  cacheRead: number;
  /** A 5-minute cache write (Anthropic: 1.25× input); absent where writes cost what input does. */
  cacheWrite?: number;
  /** A 1-hour cache write (Anthropic: 2× input). */
  cacheWrite1h?: number;
}

/**
 * What one call looked like to the cache: enough to say why its cached tokens fell short. Token
 * counts are the provider's (the reusable prefix scaled to them when it was counted otherwise).
 */
export interface CacheCallObservation {
  /** When the request was sent (ms since the epoch), when known. */
  sentAtMs?: number;
  model?: string;
  /** Reasoning effort, when the run records it: a change starts a new cache at OpenAI. */
  effort?: string;
  /** The tokens a prefix cache could have served: the part of this prompt that repeats the previous one. */
  reusableTokens: number;
  /** This call's whole prompt (the next call could reuse it), when known. */
  promptTokens?: number;
  cachedTokens: number;
  /** The prompt tokens this call wrote to the cache (Anthropic reports them), and the 1-hour part of them. */
  cacheWriteTokens?: number;
  cacheWrite1hTokens?: number;
  /** The first layer that differs from the previous request, when one did. */
  prefixBreak?: { layer: string; index: number; firstDifferingToken: number; declared: boolean; reason?: string };
  /** Context edits the server applied before sampling this call (cleared tool uses or thinking). */
  serverEditsBefore?: readonly string[];
  /** The server compacted during this call: the next call's prompt starts from its summary. */
  serverCompacted?: boolean;
  /** The cache lifetime in force for the entries this call wrote or refreshed (ms). */
  lifetimeMs: number;
}

/**
 * Below this many missed tokens a shortfall is the cache's granularity, not a miss: OpenAI caches
 * in 128-token steps from 1024 tokens, Anthropic only at its breakpoints and from 1024 tokens.
 */
export const minimumMissedTokens = 1024;

/**
 * Names the cause of a cache miss, in order of what explains it for certain: a change in the
 * request (the prefix, the tool set), a server-side edit, a change of model or effort, the time
 * since the previous call against the lifetime in force, and only then "the provider missed it for
 * no visible reason". Pure; undefined when the call got (nearly) all it could.
 */
export function explainCacheMiss(previous: CacheCallObservation | undefined, current: CacheCallObservation, pricing?: CacheMissPrices): CacheMiss | undefined {
  if (previous === undefined) return undefined;
  const missedTokens = Math.max(0, current.reusableTokens - current.cachedTokens);
  if (missedTokens < minimumMissedTokens) return undefined;
  const cause = causeOf(previous, current);
  const rebilledUsd = pricing === undefined ? undefined : rebilled(missedTokens, current, pricing);
  return { cause, missedTokens, ...(rebilledUsd === undefined ? {} : { rebilledUsd }), summary: describe(cause, missedTokens, rebilledUsd) };
}

/**
 * What the missed tokens cost beyond a cache read: what the call paid for them less what reads
 * would have cost. Where the call reported cache writes (Anthropic writes the missed prefix again),
 * the missed tokens were written — the 1-hour part at its price, the rest at the 5-minute price —
 * and only what exceeds the writes was billed as plain input.
 */
function rebilled(missedTokens: number, call: CacheCallObservation, prices: CacheMissPrices): number {
  const written = Math.min(missedTokens, call.cacheWriteTokens ?? 0);
  const writtenLong = Math.min(written, call.cacheWrite1hTokens ?? 0);
  const paid =
    writtenLong * (prices.cacheWrite1h ?? prices.input) + (written - writtenLong) * (prices.cacheWrite ?? prices.input) + (missedTokens - written) * prices.input;
  return Math.max(0, paid - missedTokens * prices.cacheRead) / 1_000_000;
}

function causeOf(previous: CacheCallObservation, current: CacheCallObservation): CacheMissCause {
  const changed = current.prefixBreak;
  const prefixCause = (at: NonNullable<CacheCallObservation["prefixBreak"]>): CacheMissCause => {
    const detail = { declared: at.declared, ...(at.reason === undefined ? {} : { reason: at.reason }) };
    return at.layer === "tools" ? { kind: "tools_changed", index: at.index, ...detail } : { kind: "prefix_changed", layer: at.layer, index: at.index, firstDifferingToken: at.firstDifferingToken, ...detail };
  };
  // A change in the request's own settings (the `request` layer: the effort is written there) is
  // explained by the model or effort change that made it, so that cause comes first then.
  if (changed !== undefined && changed.layer !== "request") return prefixCause(changed);
  const edits = [...(current.serverEditsBefore ?? []), ...(previous.serverCompacted ? ["compaction"] : [])];
  if (edits.length > 0) return { kind: "server_edit", edits };
  if (previous.model !== undefined && current.model !== undefined && previous.model !== current.model) return { kind: "model_changed", from: previous.model, to: current.model };
  if (previous.effort !== undefined && current.effort !== undefined && previous.effort !== current.effort) return { kind: "effort_changed", from: previous.effort, to: current.effort };
  if (changed !== undefined) return prefixCause(changed);
  if (previous.sentAtMs !== undefined && current.sentAtMs !== undefined) {
    const idleMs = current.sentAtMs - previous.sentAtMs;
    if (idleMs > previous.lifetimeMs) return { kind: "cache_expired", idleMs, lifetimeMs: previous.lifetimeMs };
  }
  return { kind: "provider_miss" };
}

function describe(cause: CacheMissCause, missedTokens: number, rebilledUsd: number | undefined): string {
  const cost = `${missedTokens.toLocaleString("en-US")} tokens re-billed${rebilledUsd === undefined ? "" : ` ($${rebilledUsd.toFixed(4)})`}`;
  const declared = (item: { declared: boolean; reason?: string }) => (item.declared ? `declared${item.reason ? `: ${item.reason}` : ""}` : "undeclared");
  switch (cause.kind) {
    case "prefix_changed":
      return `prefix changed at ${cause.layer}${cause.layer === "message" ? `[${cause.index}]` : ""}, token ${cause.firstDifferingToken.toLocaleString("en-US")} (${declared(cause)}): ${cost}`;
    case "tools_changed":
      return `tool set changed at tools[${cause.index}] (${declared(cause)}): ${cost}`;
    case "server_edit":
      return `server-side edit (${cause.edits.join(", ")}; a break the server declared): ${cost}`;
    case "model_changed":
      return `model changed (${cause.from} → ${cause.to}; caches are per model): ${cost}`;
    case "effort_changed":
      return `reasoning effort changed (${cause.from} → ${cause.to}): ${cost}`;
    case "cache_expired":
      return `cache expired: ${duration(cause.idleMs)} since the previous call, past the ${duration(cause.lifetimeMs)} lifetime: ${cost}`;
    case "provider_miss":
      return `the provider missed it for no visible reason (same prefix, within the lifetime): ${cost}`;
  }
}

/** "7m 12s", "1h", "45s". */
export function duration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = seconds % 60;
  const parts = [hours > 0 ? `${hours}h` : "", minutes > 0 ? `${minutes}m` : "", rest > 0 || seconds === 0 ? `${rest}s` : ""].filter((part) => part !== "");
  return parts.join(" ");
}
