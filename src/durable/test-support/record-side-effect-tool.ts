import type pg from "pg";
import type { Tool } from "../../types/index.js";

/**
 * A side-effecting tool (`risk: "write"`) whose every execution is a row in `test_side_effects`,
 * so a test counts how often each step of a run really happened.
 */
export function recordSideEffectTool(pool: pg.Pool, runKey: string): Tool<{ step: number }> {
  return {
    name: "record",
    description: "Records that a step was done.",
    parameters: { type: "object", properties: { step: { type: "integer" } }, required: ["step"] },
    risk: "write",
    async execute(args) {
      await pool.query("INSERT INTO test_side_effects (run_key, step) VALUES ($1, $2)", [runKey, args.step]);
      return `step ${args.step} recorded`;
    },
  };
}
