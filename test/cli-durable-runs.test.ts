import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { testDatabase } from "../src/session/postgres/test-support/test-database.js";
import { createFreshDatabase } from "../src/session/postgres/test-support/fresh-database.js";
import { runCli } from "./run-cli.js";

const database = await testDatabase();

describe.skipIf(database.skip !== undefined)(`ctxkit submit and runs${database.skip ? ` (skipped: ${database.skip})` : ""}`, () => {
  it("submits a run with the resolved settings of run (keys left out), lists, shows and cancels it before any worker takes it", async () => {
    const url = await createFreshDatabase(database.url!, "runs");
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-submit-"));
    const submitted = await runCli(["submit", "--database-url", url, "--model", "m", "--api-key", "sk-secret", "--json", "What files are here?"], { cwd });
    expect(submitted.code, submitted.stderr).toBe(0);
    const run = JSON.parse(submitted.stdout.trim().split("\n").at(-1)!) as { id: string; status: string; agent: { kind: string; input: { workspace: string; settings: Record<string, unknown> } } };
    expect(run.status).toBe("queued");
    // The settings `ctxkit run` would build its agent from, resolved at submission; the key is the worker's own.
    expect(run.agent).toMatchObject({ kind: "cli", input: { workspace: cwd, settings: { model: "m" } } });
    expect(run.agent.input.settings).not.toHaveProperty("apiKey");
    expect(submitted.stdout).not.toContain("sk-secret");

    const list = await runCli(["runs", "list"], { cwd, env: { CTXKIT_DATABASE_URL: url } });
    expect(list.stdout).toContain(`${run.id}  queued`);
    expect((await runCli(["runs", "show", run.id, "--database-url", url, "--json"], { cwd })).stdout).toContain('"task": "What files are here?"');
    const cancelled = await runCli(["runs", "cancel", run.id, "--database-url", url], { cwd });
    expect(cancelled.stdout).toContain(`${run.id}  cancelled`);
    const refused = await runCli(["runs", "resume", "run-nope", "--database-url", url], { cwd });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("No durable run run-nope");
  }, 60_000);

  it("shares --budget-tokens across the runs of a --budget-scope (a row), and refuses an unknown scope without a limit", async () => {
    const url = await createFreshDatabase(database.url!, "runs_budget");
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-submit-"));
    const first = await runCli(["submit", "--database-url", url, "--model", "m", "--budget-scope", "team", "--budget-tokens", "50000", "--json", "one"], { cwd });
    expect(first.code, first.stderr).toBe(0);
    const run = JSON.parse(first.stdout.trim().split("\n").at(-1)!) as { budgetScope: string; agent: { input: { settings: Record<string, unknown> } } };
    // The limit is the scope's, not this run's own session budget.
    expect(run.budgetScope).toBe("team");
    expect(run.agent.input.settings).not.toHaveProperty("budgetTokens");
    const second = await runCli(["submit", "--database-url", url, "--model", "m", "--budget-scope", "team", "--json", "two"], { cwd });
    expect(second.code, second.stderr).toBe(0);
    const unknown = await runCli(["submit", "--database-url", url, "--model", "m", "--budget-scope", "nobody", "three"], { cwd });
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain("--budget-scope nobody --budget-tokens <n>");
    // Without a scope, the budget flags are the run's own, as for `ctxkit run`.
    const own = await runCli(["submit", "--database-url", url, "--model", "m", "--budget-tokens", "9000", "--json", "four"], { cwd });
    expect((JSON.parse(own.stdout.trim().split("\n").at(-1)!) as typeof run).agent.input.settings).toMatchObject({ budgetTokens: 9000 });
  }, 60_000);

  it("asks for a database when none is given", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-submit-"));
    const result = await runCli(["runs", "list"], { cwd });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain("CTXKIT_DATABASE_URL");
  });
});
