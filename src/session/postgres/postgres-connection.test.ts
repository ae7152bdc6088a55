import { describe, expect, it } from "vitest";
import { databaseError, redactConnectionString } from "./postgres-connection.js";

// A library user sets `connectionString`, not the CLI's flag or variable: the fix names the option first.
describe("Postgres connection errors name the library option", () => {
  it.each([undefined, "", "not a url"])("a connection string of %j is option_invalid naming connectionString, without echoing it", (value) => {
    expect(() => redactConnectionString(value as string)).toThrow(
      expect.objectContaining({ name: "ConfigError", code: "option_invalid", message: expect.stringContaining("createPostgresSessionStore's `connectionString`") }),
    );
  });

  it("a driver failure is session_database_error naming connectionString and hiding the password", () => {
    const error = databaseError(redactConnectionString("postgres://u:secret@127.0.0.1:1/x"), "prepare the session tables", new Error("connect ECONNREFUSED"));
    expect(error).toMatchObject({ code: "session_database_error", message: expect.stringContaining("createPostgresSessionStore's `connectionString`") });
    expect(error.message).not.toContain("secret");
  });
});
