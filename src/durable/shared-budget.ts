import type pg from "pg";

/** What a refused reservation saw: whether waiting can help (calls in flight hold what is missing). */
export type ReserveOutcome = { reserved: true } | { reserved: false; waitHelps: boolean };

/** A scope's spend before and after one call's usage was counted (one statement: no other call's in between). */
export interface SettledSpend {
  limitTokens: number;
  spentBefore: number;
  spentAfter: number;
}

/**
 * A token budget shared by every worker: one row per scope, and one row per model call's reservation,
 * changed only in single-statement transactions that lock the scope's row. Before a model call a worker reserves what
 * the call may use (its prompt's estimate plus its most output); after it, the reservation is replaced
 * by what the call used. So N workers cannot overspend together: the overrun is bounded by the calls
 * in flight, each by what it used beyond its reservation (an estimate, so a few percent of a call).
 * A reservation is keyed by the run, the call and the attempt, so a call executed again after a crash
 * finds the dead attempt's reservation instead of leaking it: that reservation is counted as spent
 * (what the interrupted attempt may have cost; a provider bills a request its caller stopped
 * reading), and the attempt reserves its own.
 */
export interface SharedBudget {
  define(scope: string, limitTokens: number, maxCallTokens: number): Promise<void>;
  reserve(scope: string, callKey: string, tokens: number): Promise<ReserveOutcome>;
  /** Replaces the call's reservation by what it used; undefined when the scope is gone. */
  settle(scope: string, callKey: string, used: number): Promise<SettledSpend | undefined>;
  /**
   * Counts as spent the reservations earlier attempts (before `attempt`) of the call left (their
   * worker died during the call): each may have been billed in full. `callKey` is the call's key
   * without its attempt (`reservationKey`); a reservation made before keys named their attempt is an
   * earlier attempt's too. Returns the tokens it counted (0: none
   * held) and, when it counted some, the scope's spend before and after (its crossings warn as a
   * settlement's do).
   */
  chargeInterrupted(scope: string, callKey: string, attempt: number): Promise<{ charged: number; spend?: SettledSpend }>;
  /**
   * Counts as spent the reservations of runs that are no longer queued or running (completed, failed,
   * cancelled, paused, or gone): their calls will never settle them. A live call settles its own
   * reservation even when it fails or is aborted, so one an ended run still holds is a dead attempt's
   * (its worker was killed during the call, or a cancel reached the run first) — and a provider may
   * have billed it in full, so a crash cannot hide spend. One run's (`runId`), or every such run's
   * (the watchdog's sweep). Returns the tokens it counted.
   */
  chargeEnded(runId?: string): Promise<number>;
  read(scope: string): Promise<{ limitTokens: number; spentTokens: number; reservedTokens: number; maxCallTokens: number } | undefined>;
}

/**
 * A model call's reservation key: `<run id>/<call key>#<attempt>`. Each attempt holds its own, so an
 * attempt made again (while a worker thought dead still runs the first, say) neither reuses nor
 * settles another attempt's reservation; it charges only the earlier attempts' (chargeInterrupted).
 */
export function reservationKey(runId: string, callKey: string, attempt?: number): string {
  return attempt === undefined ? `${runId}/${callKey}` : `${runId}/${callKey}#${attempt}`;
}

export function createSharedBudget(pool: pg.Pool, table: (name: string) => string): SharedBudget {
  const budgets = table("ctxkit_budgets");
  const reservations = table("ctxkit_budget_reservations");
  const runs = table("ctxkit_runs");
  // A reservation's key starts with `<run id>/` (reservationKey): the run it belongs to.
  const endedRunOf = (alias: string) =>
    `NOT EXISTS (SELECT 1 FROM ${runs} run WHERE run.id = split_part(${alias}.call_key, '/', 1) AND run.status IN ('queued', 'running'))`;
  return {
    async define(scope, limitTokens, maxCallTokens) {
      await pool.query(`INSERT INTO ${budgets} (scope, limit_tokens, max_call_tokens) VALUES ($1, $2, $3) ON CONFLICT (scope) DO UPDATE SET limit_tokens = $2, max_call_tokens = $3`, [scope, limitTokens, maxCallTokens]);
    },
    // One statement each (one round trip per call on a busy database): the scope's row is locked
    // first (FOR UPDATE), so concurrent reservations are checked one after the other against what
    // the ones before them left.
    async reserve(scope, callKey, tokens) {
      const row = (
        await pool.query<{ held: boolean; inserted: boolean; limit_tokens: string; spent_tokens: string; stale_tokens: string }>(
          `WITH budget AS (SELECT limit_tokens, spent_tokens, reserved_tokens FROM ${budgets} WHERE scope = $1 FOR UPDATE),
                held AS (SELECT 1 FROM ${reservations} WHERE scope = $1 AND call_key = $2),
                inserted AS (INSERT INTO ${reservations} (scope, call_key, tokens) SELECT $1, $2, $3 FROM budget
                             WHERE NOT EXISTS (SELECT 1 FROM held) AND budget.spent_tokens + budget.reserved_tokens + $3 <= budget.limit_tokens RETURNING tokens),
                counted AS (UPDATE ${budgets} SET reserved_tokens = reserved_tokens + $3 WHERE scope = $1 AND EXISTS (SELECT 1 FROM inserted) RETURNING 1)
           SELECT EXISTS (SELECT 1 FROM held) AS held, EXISTS (SELECT 1 FROM counted) AS inserted, limit_tokens, spent_tokens,
                  (SELECT coalesce(sum(tokens), 0) FROM ${reservations} stale WHERE stale.scope = $1 AND ${endedRunOf("stale")}) AS stale_tokens FROM budget`,
          [scope, callKey, tokens],
        )
      ).rows[0];
      if (row === undefined) return { reserved: false, waitHelps: false };
      if (row.held || row.inserted) return { reserved: true };
      // Waiting helps only if calls that will settle hold what is missing: an ended run's reservation
      // is spent: it is charged (chargeEnded), never released.
      return { reserved: false, waitHelps: Number(row.spent_tokens) + Number(row.stale_tokens) + tokens <= Number(row.limit_tokens) };
    },
    async settle(scope, callKey, used) {
      const row = (
        await pool.query<{ limit_tokens: string; spent_tokens: string }>(
          `WITH released AS (DELETE FROM ${reservations} WHERE scope = $1 AND call_key = $2 RETURNING tokens)
           UPDATE ${budgets} SET reserved_tokens = greatest(0, reserved_tokens - coalesce((SELECT sum(tokens) FROM released), 0)), spent_tokens = spent_tokens + $3 WHERE scope = $1
           RETURNING limit_tokens, spent_tokens`,
          [scope, callKey, used],
        )
      ).rows[0];
      // The row was locked by the update: what it held before is what it holds now minus this call's use.
      return row && { limitTokens: Number(row.limit_tokens), spentBefore: Number(row.spent_tokens) - used, spentAfter: Number(row.spent_tokens) };
    },
    async chargeInterrupted(scope, callKey, attempt) {
      const row = (
        await pool.query<{ charged: string | null; limit_tokens: string | null; spent_tokens: string | null }>(
          `WITH charged AS (DELETE FROM ${reservations} WHERE scope = $1
                              AND (call_key = $2 OR (left(call_key, length($2) + 1) = $2 || '#' AND split_part(call_key, '#', 2)::integer < $3)) RETURNING tokens),
                updated AS (UPDATE ${budgets} SET reserved_tokens = greatest(0, reserved_tokens - (SELECT sum(tokens) FROM charged)), spent_tokens = spent_tokens + (SELECT sum(tokens) FROM charged)
                            WHERE scope = $1 AND EXISTS (SELECT 1 FROM charged) RETURNING limit_tokens, spent_tokens)
           SELECT (SELECT sum(tokens) FROM charged) AS charged, updated.limit_tokens, updated.spent_tokens FROM (SELECT 1) one LEFT JOIN updated ON true`,
          [scope, callKey, attempt],
        )
      ).rows[0];
      const charged = Number(row?.charged ?? 0);
      // The row was locked by the update: what it held before is what it holds now minus the charge.
      if (charged === 0 || row?.spent_tokens == null || row.limit_tokens == null) return { charged };
      return { charged, spend: { limitTokens: Number(row.limit_tokens), spentBefore: Number(row.spent_tokens) - charged, spentAfter: Number(row.spent_tokens) } };
    },
    async chargeEnded(runId) {
      const row = (
        await pool.query<{ charged: string | null }>(
          `WITH charged AS (DELETE FROM ${reservations} r WHERE ${endedRunOf("r")} ${runId === undefined ? "" : "AND split_part(r.call_key, '/', 1) = $1"} RETURNING scope, tokens),
                per_scope AS (SELECT scope, sum(tokens) AS tokens FROM charged GROUP BY scope),
                updated AS (UPDATE ${budgets} b SET reserved_tokens = greatest(0, b.reserved_tokens - per_scope.tokens), spent_tokens = b.spent_tokens + per_scope.tokens FROM per_scope WHERE b.scope = per_scope.scope RETURNING 1)
           SELECT (SELECT sum(tokens) FROM charged) AS charged, (SELECT count(*) FROM updated) AS updated`,
          runId === undefined ? [] : [runId],
        )
      ).rows[0];
      return Number(row?.charged ?? 0);
    },
    async read(scope) {
      const row = (await pool.query<{ limit_tokens: string; spent_tokens: string; reserved_tokens: string; max_call_tokens: string }>(`SELECT * FROM ${budgets} WHERE scope = $1`, [scope])).rows[0];
      return row && { limitTokens: Number(row.limit_tokens), spentTokens: Number(row.spent_tokens), reservedTokens: Number(row.reserved_tokens), maxCallTokens: Number(row.max_call_tokens) };
    },
  };
}
