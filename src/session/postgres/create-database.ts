import { loadPg } from "./load-pg.js";

/**
 * Creates an empty database `name` on the server of `serverUrl` and returns its URL (the same
 * credentials and host). `name` must be a plain identifier: it is written into the statement.
 */
export async function createDatabase(serverUrl: string, name: string): Promise<string> {
  const pgModule = await loadPg();
  const admin = new pgModule.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
