import { ConfigError } from "./config-error.js";

/** The longest delay Node's setTimeout keeps (2^31 − 1 ms, 24.8 days): a longer one fires after 1 ms. */
export const longestTimerMs = 2_147_483_647;

/**
 * Refuses a whole-number option given from plain JavaScript as a negative, fractional, string or
 * too large value (past what a timer holds): read as it came, it failed later in the model's view or
 * as Node's own error. `owner` is whose option it is, possessive ("connectMcpServers'").
 */
export function requireWholeNumberOption(owner: string, name: string, value: unknown, minimum: number, defaultValue?: number): void {
  if (typeof value === "number" && Number.isInteger(value) && value >= minimum && value <= longestTimerMs) return;
  const saysDefault = defaultValue === undefined ? "" : ` (default ${defaultValue})`;
  throw new ConfigError("option_invalid", `${owner} \`${name}\` must be a whole number ≥ ${minimum}${saysDefault}; got ${JSON.stringify(value) ?? String(value)}.`);
}
