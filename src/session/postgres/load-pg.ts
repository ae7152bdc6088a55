import type pg from "pg";
import { ConfigError } from "../../types/index.js";

/** The `pg` client package, loaded on first use: it is an optional peer, needed only for the Postgres store. */
export async function loadPg(): Promise<typeof pg> {
  try {
    return (await import("pg")).default;
  } catch (error) {
    throw new ConfigError("dependency_missing", "The Postgres session store needs the pg package: npm install pg", { cause: error });
  }
}
