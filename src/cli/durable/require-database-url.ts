import { ConfigError } from "../../types/index.js";
import type { CliFlags } from "../cli-options.js";
import type { CliIo } from "../cli-io.js";
import { resolveConfig } from "../resolve-config.js";

/** The database of durable runs: `--database-url` or `CTXKIT_DATABASE_URL` (or the user config); required. */
export function requireDatabaseUrl(flags: CliFlags, io: CliIo): string {
  const url = resolveConfig(flags, io.env, { cwd: io.cwd }).databaseUrl;
  if (url === undefined) {
    // The CLI puts "ctxkit <command>: " before it (it said the command's name twice).
    throw new ConfigError("option_invalid", "no PostgreSQL database is set: pass --database-url postgres://user@host:port/db or set CTXKIT_DATABASE_URL.");
  }
  return url;
}
