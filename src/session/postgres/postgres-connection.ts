import { createHash } from "node:crypto";
import type pg from "pg";
import { ConfigError, SessionError } from "../../types/index.js";
import type { PostgresConnectionOptions } from "./postgres-connection-options.js";

const identifierPattern = /^[a-z_][a-z0-9_]{0,62}$/;

/** The schema's name checked and quoted: it is spliced into SQL, so only plain identifiers are accepted. */
export function quoteSchema(schema: string | undefined): string {
  const name = schema ?? "public";
  if (!identifierPattern.test(name)) {
    throw new ConfigError("option_invalid", `The Postgres schema must be a plain lower-case identifier (letters, digits, _; at most 63), got ${JSON.stringify(name)}.`);
  }
  return `"${name}"`;
}

/** The connection string without its password, for messages and `store.location`. */
export function redactConnectionString(connectionString: string): string {
  try {
    const url = new URL(connectionString);
    if (url.password !== "") url.password = "***";
    return url.toString();
  } catch {
    // The string itself is not shown: it may hold a password.
    throw new ConfigError(
      "option_invalid",
      "The database URL (createPostgresSessionStore's `connectionString`; CLI: --database-url or CTXKIT_DATABASE_URL) is missing or not a URL; expected postgres://user:password@host:port/database.",
    );
  }
}

export function clientConfig(options: PostgresConnectionOptions): pg.ClientConfig {
  redactConnectionString(options.connectionString); // validates before any connection attempt
  const statementTimeout = options.statementTimeoutMs ?? 30_000;
  return {
    connectionString: options.connectionString,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 10_000,
    statement_timeout: statementTimeout,
    // The client gives up a little after the server would have: a silent network still ends.
    query_timeout: statementTimeout + 5_000,
    application_name: "ctxkit",
    keepAlive: true,
  };
}

/**
 * A 64-bit advisory-lock key for a name (the first 8 bytes of its SHA-256, signed): Postgres'
 * `hashtext` is 32 bits, where two of a few thousand session ids could collide and refuse a writer.
 */
export function advisoryKeyOf(name: string): string {
  return createHash("sha256").update(name, "utf8").digest().readBigInt64BE(0).toString();
}

/** The advisory lock a session's writer holds (`schema` quoted, as quoteSchema gives it): one writer per session. */
export function sessionLockKeyOf(schema: string, id: string): string {
  return advisoryKeyOf(`ctxkit-session:${schema}:${id}`);
}

/** A driver or server failure as a typed error that names the database and what to check. */
export function databaseError(location: string, doing: string, error: unknown): SessionError {
  if (error instanceof SessionError) return error;
  const reason = error instanceof Error ? error.message : String(error);
  return new SessionError(
    "session_database_error",
    `Could not ${doing} in ${location}: ${reason}. Check that PostgreSQL is running and the URL (createPostgresSessionStore's \`connectionString\`; CLI: --database-url or CTXKIT_DATABASE_URL) is right; nothing stored was changed by the failed step.`,
    { cause: error },
  );
}
