import pg from "pg";
import { describe, expect, it } from "vitest";
import { testDatabase } from "../session/postgres/test-support/test-database.js";
import { withIdleTransactionTimeout } from "./with-idle-transaction-timeout.js";

const database = await testDatabase();

describe("withIdleTransactionTimeout", () => {
  it("adds the timeout as a startup option and keeps the rest of the URL", () => {
    const url = new URL(withIdleTransactionTimeout("postgres://user:p%40ss@127.0.0.1:5432/app?sslmode=disable"));
    expect(url.searchParams.get("options")).toBe("-c idle_in_transaction_session_timeout=60000");
    expect([url.username, url.password, url.host, url.pathname, url.searchParams.get("sslmode")]).toEqual(["user", "p%40ss", "127.0.0.1:5432", "/app", "disable"]);
  });

  it("keeps options the user set, and a timeout of their own untouched", () => {
    expect(new URL(withIdleTransactionTimeout("postgresql://h/db?options=-c%20search_path%3Dapp")).searchParams.get("options")).toBe("-c search_path=app -c idle_in_transaction_session_timeout=60000");
    const own = "postgres://h/db?options=-c%20idle_in_transaction_session_timeout%3D5000";
    expect(withIdleTransactionTimeout(own)).toBe(own);
  });

  it("leaves a string that is not a URL as it is", () => {
    expect(withIdleTransactionTimeout("host=localhost dbname=app")).toBe("host=localhost dbname=app");
  });

  it.skipIf(database.skip !== undefined)("makes the server apply the timeout when the connection opens, with no query of its own", async () => {
    const client = new pg.Client({ connectionString: withIdleTransactionTimeout(database.url!, 45_000) });
    await client.connect();
    try {
      const shown = await client.query<{ idle_in_transaction_session_timeout: string }>("SHOW idle_in_transaction_session_timeout");
      expect(shown.rows[0]?.idle_in_transaction_session_timeout).toBe("45s");
    } finally {
      await client.end();
    }
  });
});
