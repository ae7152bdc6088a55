import { createDatabase } from "../create-database.js";

/** A new, empty database on the test server (for code that uses the default schema, like the CLI); its URL. */
export function createFreshDatabase(serverUrl: string, label: string): Promise<string> {
  return createDatabase(serverUrl, `ctxkit_${label}_${process.pid}_${Math.random().toString(36).slice(2, 8)}`);
}
