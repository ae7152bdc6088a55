// Its own file, without pg's types: the root entry's declarations reach it (through
// createPostgresSessionStore's options), and a user who never installs the optional `pg` must still
// typecheck them without skipLibCheck.
/** How ctxkit connects to PostgreSQL; every answer is bounded in time, and every read in size. */
export interface PostgresConnectionOptions {
  /** `postgres://user:password@host:port/database` (libpq form). */
  connectionString: string;
  /** The Postgres schema that holds ctxkit's tables (created when missing). Default `public`. */
  schema?: string;
  /** Connections in the shared pool; each open session writer holds one more of its own. Default 10. */
  maxConnections?: number;
  /** Longest a connection attempt may take. Default 10 s. */
  connectTimeoutMs?: number;
  /** Longest one statement may run on the server (and the client waits). Default 30 s. */
  statementTimeoutMs?: number;
}
