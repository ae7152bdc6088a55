import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createFreshDatabase } from "../../src/session/postgres/test-support/fresh-database.js";
import { testDatabase } from "../../src/session/postgres/test-support/test-database.js";
import { runCliProcess } from "./run-cli-process.js";

const database = await testDatabase();

describe.skipIf(database.skip !== undefined)(`ctxkit submit's output${database.skip ? ` (skipped: ${database.skip})` : ""}`, () => {
  it("is the run as JSON and nothing else on a database DBOS has no tables in yet (its migrations say nothing)", async () => {
    const url = await createFreshDatabase(database.url!, "submit_stdout");
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-submit-"));
    const submitted = await runCliProcess(["submit", "--database-url", url, "--model", "m", "--json", "What files are here?"], { cwd, timeoutMs: 60_000 });
    expect(submitted.code, submitted.stderr).toBe(0);
    const lines = submitted.stdout.split("\n").filter((line) => line !== "");
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ status: "queued", task: "What files are here?" });
    expect(submitted.stderr).not.toContain("DBOS");
  }, 90_000);
});
