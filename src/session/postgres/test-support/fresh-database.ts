import pg from "pg";

/** A new, empty database on the test server (for code that uses the default schema, like the CLI); its URL. */
export async function createFreshDatabase(serverUrl: string, label: string): Promise<string> {
  const name = `ctxkit_${label}_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: serverUrl });
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
