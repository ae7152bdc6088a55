import { findPostgresBinaries, startThrowawayPostgres } from "../../../testing/throwaway-postgres.js";

export type TestDatabase = { url: string; skip?: undefined } | { url?: undefined; skip: string };

let database: Promise<TestDatabase> | undefined;

/**
 * The database the Postgres tests use: `CTXKIT_DATABASE_URL` when set (CI sets it), else one
 * throw-away cluster per test process (started on first use, stopped when the process ends), else a
 * reason to skip: the tests run against a real server or not at all, never a mock.
 */
export function testDatabase(): Promise<TestDatabase> {
  database ??= (async (): Promise<TestDatabase> => {
    const url = process.env.CTXKIT_DATABASE_URL;
    if (url !== undefined && url !== "") return { url };
    if (findPostgresBinaries() === undefined) return { skip: "no CTXKIT_DATABASE_URL and PostgreSQL is not installed (apt-get install -y postgresql)" };
    try {
      const started = await startThrowawayPostgres({ stopWhenProcessExits: process.pid });
      process.once("exit", () => started.stop());
      return { url: started.url };
    } catch (error) {
      return { skip: `no CTXKIT_DATABASE_URL and a throw-away PostgreSQL did not start: ${error instanceof Error ? error.message : String(error)}` };
    }
  })();
  return database;
}

let schemas = 0;

/** A fresh schema name per use: tests share one database without seeing each other's sessions. */
export function freshSchemaName(label: string): string {
  schemas += 1;
  return `t_${label}_${process.pid}_${schemas}_${Math.random().toString(36).slice(2, 8)}`;
}
