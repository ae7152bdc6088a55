import type { Usage } from "./usage.js";

/**
 * Why a call got fewer cached tokens than the previous prompt left reusable (see
 * `explainCacheMiss` in src/context/cache-miss): the cause, in order of certainty.
 */
export type CacheMissCause =
  | { kind: "prefix_changed"; layer: string; index: number; firstDifferingToken: number; declared: boolean; reason?: string }
  | { kind: "tools_changed"; index: number; declared: boolean; reason?: string }
  | { kind: "server_edit"; edits: string[] }
  | { kind: "model_changed"; from: string; to: string }
  | { kind: "effort_changed"; from: string; to: string }
  | { kind: "cache_expired"; idleMs: number; lifetimeMs: number }
  | { kind: "provider_miss" };

/** Why a call's cached tokens fell short of its reusable prefix, how many, and what that re-billed. */
export interface CacheMiss {
  cause: CacheMissCause;
  /** reusable − cached: tokens billed at the full input price that the cache could have served. */
  missedTokens: number;
  /** What the call paid for the missed tokens (the cache-write price where it wrote them again, else the input price) less what cache reads of them would have cost, in USD; absent without prices. */
  rebilledUsd?: number;
  /** One sentence for people. */
  summary: string;
}

/**
 * A resumed session's last model call, as its request and usage records hold it: what the first
 * call after the resume is compared with, so a miss there is named as live as any other.
 */
export interface RecordedCacheCall {
  /** When the request was sent (the request record's `at`). */
  at: string;
  model: string;
  effort?: string;
  usage: Usage;
  /** The lifetime recorded with the request: `null` when the provider named none, absent in older files. */
  cacheLifetimeMs?: number | null;
}
