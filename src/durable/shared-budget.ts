import type pg from "pg";

/**
 * A token budget shared by every worker: one row per scope, changed only in single-statement
 * transactions. Before a model call a worker reserves the most the call may use (prompt estimate +
 * max output); the call is refused when reservations and spending would pass the limit. After it,
 * the reservation is replaced by what the call used. So N workers cannot overspend together: the
 * overrun is bounded by the calls in flight whose use exceeded their reservation, i.e. at most
 * (calls in flight) × (max call size − reservation), and 0 when reservations are the max call size.
 */
export interface SharedBudget {
  define(scope: string, limitTokens: number, maxCallTokens: number): Promise<void>;
  /** True when `tokens` were reserved; false when the budget cannot cover them. */
  reserve(scope: string, tokens: number): Promise<boolean>;
  settle(scope: string, reserved: number, used: number): Promise<void>;
  read(scope: string): Promise<{ limitTokens: number; spentTokens: number; reservedTokens: number; maxCallTokens: number } | undefined>;
}

export function createSharedBudget(pool: pg.Pool, table: (name: string) => string): SharedBudget {
  const budgets = table("ctxkit_budgets");
  return {
    async define(scope, limitTokens, maxCallTokens) {
      await pool.query(`INSERT INTO ${budgets} (scope, limit_tokens, max_call_tokens) VALUES ($1, $2, $3) ON CONFLICT (scope) DO UPDATE SET limit_tokens = $2, max_call_tokens = $3`, [scope, limitTokens, maxCallTokens]);
    },
    async reserve(scope, tokens) {
      const result = await pool.query(`UPDATE ${budgets} SET reserved_tokens = reserved_tokens + $2 WHERE scope = $1 AND spent_tokens + reserved_tokens + $2 <= limit_tokens`, [scope, tokens]);
      return result.rowCount === 1;
    },
    async settle(scope, reserved, used) {
      await pool.query(`UPDATE ${budgets} SET reserved_tokens = greatest(0, reserved_tokens - $2), spent_tokens = spent_tokens + $3 WHERE scope = $1`, [scope, reserved, used]);
    },
    async read(scope) {
      const row = (await pool.query<{ limit_tokens: string; spent_tokens: string; reserved_tokens: string; max_call_tokens: string }>(`SELECT * FROM ${budgets} WHERE scope = $1`, [scope])).rows[0];
      return row && { limitTokens: Number(row.limit_tokens), spentTokens: Number(row.spent_tokens), reservedTokens: Number(row.reserved_tokens), maxCallTokens: Number(row.max_call_tokens) };
    },
  };
}
