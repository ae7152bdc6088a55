import { mkdtemp, writeFile } from "node:fs/promises";
import pg from "pg";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { testDatabase } from "../src/session/postgres/test-support/test-database.js";
import { createFreshDatabase } from "../src/session/postgres/test-support/fresh-database.js";
import { runCli } from "./run-cli.js";
import { sharedBudgetRefusal } from "../src/durable/create-durable-provider.js";
import { workflowEndedMessage } from "../src/durable/durable-client.js";
import { runTimeoutMessage } from "../src/durable/run-durable-workflow.js";
import { sessionLockKeyOf } from "../src/session/postgres/postgres-connection.js";

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
    expect(refused.stderr).toContain("see 'ctxkit runs list'.");
    expect(refused.stderr).not.toContain("list()");
  }, 60_000);

  it("resumes a cancelled run given --approve saying the answer was not used, and says on stderr while it waits for the cancelled execution", async () => {
    const url = await createFreshDatabase(database.url!, "runs_resume");
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-runs-"));
    const submitted = await runCli(["submit", "--database-url", url, "--model", "m", "--json", "Count the files."], { cwd });
    const run = JSON.parse(submitted.stdout.trim().split("\n").at(-1)!) as { id: string; sessionId: string };
    expect((await runCli(["runs", "cancel", run.id, "--database-url", url], { cwd })).code).toBe(0);
    const resumed = await runCli(["runs", "resume", run.id, "--approve", "--database-url", url], { cwd });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain(`${run.id}  queued`);
    expect(resumed.stderr).toBe(`ctxkit runs: run ${run.id} was cancelled, not waiting for an answer: --approve was not used. It starts again from its last completed step; if it asks about a call, answer with 'ctxkit runs resume ${run.id} --approve' or --decline.\n`);

    // Cancelled again while an execution still holds its session (a test connection holds the lock for
    // as long as resume waits): resume says why nothing happens, then how to go on.
    expect((await runCli(["runs", "cancel", run.id, "--database-url", url], { cwd })).code).toBe(0);
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    try {
      await holder.query("SELECT pg_advisory_lock($1::bigint)", [sessionLockKeyOf(`"public"`, run.sessionId)]);
      const waited = await runCli(["runs", "resume", run.id, "--database-url", url], { cwd, timeoutMs: 60_000 });
      expect(waited.code).toBe(1);
      expect(waited.stderr).toContain(`ctxkit runs: run ${run.id}'s cancelled execution still holds its session; waiting up to 20 s for it to stop...\n`);
      expect(waited.stderr).toContain(`run 'ctxkit runs resume ${run.id}' again in a few seconds.`);
    } finally {
      await holder.end();
    }
  }, 90_000);

  it("tells a retried 'runs resume --approve' whose first try's answer was taken that the run waits for no answer now", async () => {
    const url = await createFreshDatabase(database.url!, "runs_retried");
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-runs-"));
    const run = JSON.parse((await runCli(["submit", "--database-url", url, "--model", "m", "--json", "hi"], { cwd })).stdout.trim().split("\n").at(-1)!) as { id: string };
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      // The first command sent the answer and died; the worker took it and goes on.
      await admin.query("UPDATE ctxkit_runs SET status = 'running' WHERE id = $1", [run.id]);
    } finally {
      await admin.end();
    }
    const retried = await runCli(["runs", "resume", run.id, "--approve", "--database-url", url], { cwd });
    expect(retried.code).toBe(1);
    expect(retried.stderr).toContain(`Run ${run.id} is running; only a cancelled or paused (needs_confirmation) run can be resumed. It waits for no answer now: an earlier answer was taken (a resume that did not finish, another person's), or a worker is taking the run over and asks again shortly; see its status.`);
  }, 60_000);

  it("lists the 50 newest runs and counts them all by status, so an old queued run past them is not missed", async () => {
    const url = await createFreshDatabase(database.url!, "runs_many");
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-runs-"));
    expect((await runCli(["runs", "list", "--database-url", url], { cwd })).stdout).toBe("No durable runs.\n");
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      // The oldest is still queued (an old version's, say): draining before an upgrade must see it.
      await admin.query(
        `INSERT INTO ctxkit_runs (id, task, agent, session_id, status, created_at)
         SELECT 'run-' || n, 'task ' || n, '{"kind":"cli","input":{}}', 's-' || n, CASE WHEN n = 1 THEN 'queued' WHEN n = 2 THEN 'failed' ELSE 'completed' END, now() - (60 - n) * interval '1 minute'
         FROM generate_series(1, 52) AS n`,
      );
    } finally {
      await admin.end();
    }
    const list = await runCli(["runs", "list", "--database-url", url], { cwd });
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout.trim().split("\n")).toHaveLength(50);
    expect(list.stdout).not.toContain("run-1 ");
    expect(list.stderr).toBe("ctxkit runs: the 50 newest of 52 runs are listed; all of them: 1 queued, 50 completed, 1 failed.\n");
    const json = await runCli(["runs", "list", "--json", "--database-url", url], { cwd });
    expect(JSON.parse(json.stdout)).toHaveLength(50);
    expect(json.stderr).toContain("1 queued");
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
    // A mode would be dropped with a shared scope (always hard): refused, as --budget-cost is.
    const mode = await runCli(["submit", "--database-url", url, "--model", "m", "--budget-scope", "team", "--budget-tokens", "50000", "--budget-mode", "soft", "five"], { cwd });
    expect(mode.code).not.toBe(0);
    expect(mode.stderr).toContain("Drop --budget-mode, or drop --budget-scope");
    // Without a scope, the budget flags are the run's own, as for `ctxkit run`.
    const own = await runCli(["submit", "--database-url", url, "--model", "m", "--budget-tokens", "9000", "--json", "four"], { cwd });
    expect((JSON.parse(own.stdout.trim().split("\n").at(-1)!) as typeof run).agent.input.settings).toMatchObject({ budgetTokens: 9000 });
  }, 60_000);

  it("stores and prints no MCP header or env value and no URL credentials (names only; the worker has its own)", async () => {
    const url = await createFreshDatabase(database.url!, "runs_secrets");
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-submit-"));
    const servers = join(cwd, "servers.json");
    await writeFile(
      servers,
      JSON.stringify({
        mcpServers: {
          remote: { url: "https://mcp-user:mcp-pass-SECRET1@mcp.example.com/mcp", headers: { Authorization: "Bearer header-SECRET2" } },
          local: { command: "some-server", args: [], env: { TOKEN: "env-SECRET3" } },
        },
      }),
    );
    const submitted = await runCli(["submit", "--database-url", url, "--model", "m", "--base-url", "https://api-user:base-SECRET4@llm.example.com/v1", "--mcp-config", servers, "--json", "hi"], { cwd });
    expect(submitted.code, submitted.stderr).toBe(0);
    const run = JSON.parse(submitted.stdout.trim().split("\n").at(-1)!) as { id: string; agent: { input: Record<string, unknown> } };
    const shown = await runCli(["runs", "show", run.id, "--database-url", url, "--json"], { cwd });
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    const row = JSON.stringify((await admin.query("SELECT * FROM ctxkit_runs WHERE id = $1", [run.id])).rows[0]);
    await admin.end();
    for (const secret of ["SECRET1", "SECRET2", "SECRET3", "SECRET4", "mcp-user", "api-user"]) {
      expect(row).not.toContain(secret);
      expect(submitted.stdout + submitted.stderr).not.toContain(secret);
      expect(shown.stdout).not.toContain(secret);
    }
    // What the worker fills in from its own config and environment: the names, and where the credentials were.
    expect(run.agent.input).toMatchObject({
      settings: { baseURL: "https://llm.example.com/v1", mcpServers: { remote: { url: "https://mcp.example.com/mcp" }, local: { command: "some-server" } } },
      secretsLeftOut: { baseUrlCredentials: true, mcpServers: { remote: { headers: ["Authorization"], urlCredentials: true }, local: { env: ["TOKEN"] } } },
    });
  }, 60_000);

  it("refuses the flags of run a durable run cannot honour, and stores no TRACEPARENT that is not W3C's", async () => {
    const url = await createFreshDatabase(database.url!, "runs_flags");
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-submit-"));
    for (const flags of [["--continue"], ["--session", "20261201-080000-aaaaaa"], ["--log-requests", "requests.jsonl"]]) {
      const refused = await runCli(["submit", "--database-url", url, "--model", "m", ...flags, "hi"], { cwd });
      expect(refused.code, flags.join(" ")).not.toBe(0);
      expect(refused.stderr).toContain(`${flags[0]} is not for ctxkit submit`);
    }
    const long = `00-${"a".repeat(32)}-${"b".repeat(16)}-01${"x".repeat(5000)}`;
    const submitted = await runCli(["submit", "--database-url", url, "--model", "m", "--json", "hi"], { cwd, env: { TRACEPARENT: long } });
    expect(submitted.code, submitted.stderr).toBe(0);
    expect(submitted.stderr).toContain("TRACEPARENT is not a W3C traceparent");
    expect(JSON.parse(submitted.stdout.trim().split("\n").at(-1)!)).not.toHaveProperty("traceparent");
  }, 60_000);

  it("names its flags where the library's durable errors name its options (resume's decision, a shared budget's limit, a deadline, a resume)", async () => {
    const url = await createFreshDatabase(database.url!, "runs_words");
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-submit-"));
    const submit = async () => JSON.parse((await runCli(["submit", "--database-url", url, "--model", "m", "--json", "hi"], { cwd })).stdout.trim().split("\n").at(-1)!) as { id: string };
    const [paused, refused, timedOut, ended] = [await submit(), await submit(), await submit(), await submit()];
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      // What a worker leaves: a run paused on a call a crash interrupted, and one a shared budget refused.
      await admin.query(`UPDATE ctxkit_runs SET status = 'needs_confirmation', paused_call = $2 WHERE id = $1`, [paused.id, JSON.stringify({ tool: "write", callKey: "tool-0-call-0" })]);
      const error = { code: "budget_exceeded", message: sharedBudgetRefusal("team", "it has too little left for a call of up to 4096 tokens") };
      const failed = (id: string, error: { code: string; message: string }) =>
        admin.query(`UPDATE ctxkit_runs SET status = 'failed', result = $2 WHERE id = $1`, [id, JSON.stringify({ stopReason: "error", finalText: "", iterations: 1, inputTokens: 0, outputTokens: 0, repeatedModelCalls: 0, error })]);
      await failed(refused.id, error);
      await failed(timedOut.id, { code: "run_timeout", message: runTimeoutMessage(90_000) });
      await failed(ended.id, { code: "workflow_ended", message: workflowEndedMessage(ended.id, "CANCELLED") });
    } finally {
      await admin.end();
    }
    const undecided = await runCli(["runs", "resume", paused.id, "--database-url", url], { cwd });
    expect(undecided.code).toBe(1);
    expect(undecided.stderr).toContain("say whether to run it (--approve) or not (--decline)");
    expect(undecided.stderr).not.toContain('"rerun"');
    const shown = await runCli(["runs", "show", refused.id, "--database-url", url], { cwd });
    expect(shown.stdout).toContain("Raise its limit (ctxkit submit --budget-scope team --budget-tokens <n>), or submit with another --budget-scope.");
    expect(shown.stdout).not.toContain("defineBudget");
    const shownTimeout = await runCli(["runs", "show", timedOut.id, "--database-url", url], { cwd });
    expect(shownTimeout.stdout).toContain("within its --timeout of 90 s after a worker started it; give it a longer --timeout.");
    expect(shownTimeout.stdout).not.toContain("timeoutMs");
    const shownEnded = await runCli(["runs", "show", ended.id, "--database-url", url], { cwd });
    expect(shownEnded.stdout).toContain(`then 'ctxkit runs resume ${ended.id}' if it was cancelled.`);
    expect(shownEnded.stdout).not.toContain("resume(");
  }, 60_000);

  it("asks for a database when none is given", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-submit-"));
    const result = await runCli(["runs", "list"], { cwd });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain("CTXKIT_DATABASE_URL");
  });
});
