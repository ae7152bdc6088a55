import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDurableBuilders } from "../src/cli/durable/durable-builders.js";
import { openDurableClient } from "../src/durable/durable-client.js";
import { startDurableWorker } from "../src/durable/start-durable-worker.js";
import { createFreshDatabase } from "../src/session/postgres/test-support/fresh-database.js";
import { testDatabase } from "../src/session/postgres/test-support/test-database.js";
import { startOpenAIModelServer, type OpenAIModelServer } from "../src/testing.js";
import { cliEnvironment, runCli } from "./run-cli.js";

const database = await testDatabase();

// The core of durable runs: a worker rebuilds the exact agent of `ctxkit run` from the run's record.
describe.skipIf(database.skip !== undefined)(`a submitted run${database.skip ? ` (skipped: ${database.skip})` : ""}`, () => {
  // One worker for the file (DBOS runs one per process), on a clock that stands still (see below).
  let url: string;
  let pool: pg.Pool;
  let client: Awaited<ReturnType<typeof openDurableClient>>;
  let worker: Awaited<ReturnType<typeof startDurableWorker>>;
  const RealDate = globalThis.Date;
  const FixedDate = fixedDate(RealDate);
  beforeAll(async () => {
    url = await createFreshDatabase(database.url!, "same_requests");
    pool = new pg.Pool({ connectionString: url, max: 2 });
    client = await openDurableClient(url);
    // The worker's environment has the key (a run's record has none) and nothing else of the submitter's.
    worker = await startDurableWorker({ connectionString: url, concurrency: 1, clock: () => new FixedDate(), builders: createDurableBuilders({ CTXKIT_API_KEY: "test-key" }, pool) });
  }, 60_000);
  afterAll(async () => {
    await worker?.stop();
    await client?.close();
    await pool?.end();
  }, 60_000);

  it("sends byte-identical requests to `ctxkit run` with the same config (AGENTS.md, skills, compression, status bar, notes, budget)", { timeout: 180_000 }, async () => {
    const workspace = await mkdtemp(join(tmpdir(), "ctxkit-durable-same-"));
    await writeFile(join(workspace, "README.md"), "# Forecasts\n\nThis service answers with the weather of a city.\n");
    await writeFile(join(workspace, "AGENTS.md"), "Answer in one sentence.\n");
    await mkdir(join(workspace, "skills", "forecast"), { recursive: true });
    await writeFile(join(workspace, "skills", "forecast", "SKILL.md"), "---\nname: forecast\ndescription: Tell a city's weather. Use when the user asks about the weather.\n---\n\nRead the README first.\n");
    const settings = {
      model: "scripted-model",
      // The session id would be the prompt-cache key; one key keeps the two runs' bodies comparable.
      cacheKey: "same-key",
      skills: ["skills"],
      compression: "ctxkit",
      statusBar: "append",
      // The time in each status differs between a run now and a run on a worker's clock.
      statusBarTimestamps: false,
      budgetTokens: 200_000,
      notes: "session",
      tools: ["read_file", "write_file", "bash"],
    };
    await writeFile(join(workspace, "ctxkit.config.json"), JSON.stringify(settings, null, 2));
    const task = "What is the weather in Oslo?";
    const turns = [
      { toolCalls: [{ name: "read_file", arguments: { path: "README.md" } }] },
      { toolCalls: [{ name: "skill", arguments: { name: "forecast" } }] },
      { toolCalls: [{ name: "write_file", arguments: { path: "answer.txt", content: "sunny\n" } }] },
      { toolCalls: [{ name: "notes_read", arguments: {} }] },
      "It is sunny in Oslo.",
    ];
    const environment = cliEnvironment(workspace, { CTXKIT_API_KEY: "test-key", ...(process.env.SHELL ? { SHELL: process.env.SHELL } : {}) });
    let cliServer: OpenAIModelServer | undefined;
    let workerServer: OpenAIModelServer | undefined;
    // Both runs see one clock that stands still (the status shows the time): `ctxkit run`'s, the
    // submitter's (where the run's clock starts), and the worker's (the times its steps record).
    const withFixedDate = async <Result>(work: () => Promise<Result>): Promise<Result> => {
      globalThis.Date = FixedDate;
      try {
        return await work();
      } finally {
        globalThis.Date = RealDate;
      }
    };
    try {
      const cliModel = await startOpenAIModelServer(turns);
      cliServer = cliModel;
      const cli = await withFixedDate(() => runCli(["run", "--trust-workspace", "--yes", task], { cwd: workspace, env: { ...environment, CTXKIT_BASE_URL: cliModel.baseURL }, timeoutMs: 120_000 }));
      expect(cli.code, cli.stderr).toBe(0);

      // The same workspace, as new; the run is submitted with the same flags and run by a worker.
      await rm(join(workspace, ".ctxkit"), { recursive: true, force: true });
      await rm(join(workspace, "answer.txt"));
      const workerModel = await startOpenAIModelServer(turns);
      workerServer = workerModel;
      const submitted = await withFixedDate(() => runCli(["submit", "--trust-workspace", "--yes", "--json", task], { cwd: workspace, env: { ...environment, CTXKIT_BASE_URL: workerModel.baseURL, CTXKIT_DATABASE_URL: url } }));
      expect(submitted.code, submitted.stderr).toBe(0);
      const run = JSON.parse(submitted.stdout.trim().split("\n").at(-1)!) as { id: string; sessionId: string };
      const done = await client.wait(run.id, 120_000);
      expect(done.result?.error).toBeUndefined();
      expect(done).toMatchObject({ status: "completed", result: { stopReason: "final_answer", iterations: 5 } });

      const sent = cliModel.requests.map((request) => request.body);
      expect(sent).toHaveLength(5);
      const last = sent.at(-1)!;
      for (const text of ["forecast", "notes_read", "Answer in one sentence.", "This service answers", "Read the README first."]) expect(last).toContain(text);
      expect(workerModel.requests.map((request) => request.body)).toEqual(sent);
      // Its session is in the database, under the id the record named at submission.
      const show = await runCli(["sessions", "show", run.sessionId, "--database-url", url], { cwd: workspace, env: environment });
      expect(show.code, show.stderr).toBe(0);
    } finally {
      await cliServer?.close();
      await workerServer?.close();
    }
  });

  it("pauses as needs_confirmation where `ctxkit run` would ask at a terminal, and goes on once a person approves", { timeout: 120_000 }, async () => {
    const workspace = await mkdtemp(join(tmpdir(), "ctxkit-durable-confirm-"));
    await writeFile(join(workspace, "ctxkit.config.json"), JSON.stringify({ model: "scripted-model", tools: ["read_file", "write_file"] }));
    const server = await startOpenAIModelServer([{ toolCalls: [{ name: "write_file", arguments: { path: "answer.txt", content: "sunny\n" } }] }, "Written."]);
    const environment = cliEnvironment(workspace, { CTXKIT_API_KEY: "test-key" });
    try {
      // No --yes: a write asks first.
      const submitted = await runCli(["submit", "--trust-workspace", "--json", "Write the answer."], { cwd: workspace, env: { ...environment, CTXKIT_BASE_URL: server.baseURL, CTXKIT_DATABASE_URL: url } });
      expect(submitted.code, submitted.stderr).toBe(0);
      const run = JSON.parse(submitted.stdout.trim().split("\n").at(-1)!) as { id: string };
      const paused = await client.wait(run.id, 60_000);
      expect(paused).toMatchObject({ status: "needs_confirmation", pausedCall: { tool: "write_file", reason: "confirmation" } });
      expect(paused.pausedCall?.arguments).toContain("answer.txt");
      const shown = await runCli(["runs", "show", run.id, "--database-url", url], { cwd: workspace, env: environment });
      expect(shown.stdout).toContain("write_file call asks for confirmation");
      const resumed = await runCli(["runs", "resume", run.id, "--approve", "--database-url", url], { cwd: workspace, env: environment });
      expect(resumed.code, resumed.stderr).toBe(0);
      const done = await client.wait(run.id, 60_000);
      expect(done).toMatchObject({ status: "completed", result: { finalText: "Written." } });
      expect(await readFile(join(workspace, "answer.txt"), "utf8")).toBe("sunny\n");
    } finally {
      await server.close();
    }
  });
});

function fixedDate(RealDate: DateConstructor): DateConstructor {
  const fixed = RealDate.UTC(2026, 0, 1, 12, 0, 0);
  return class FixedDate extends RealDate {
    constructor(...args: unknown[]) {
      if (args.length === 0) super(fixed);
      else super(...(args as [string]));
    }
    static override now(): number {
      return fixed;
    }
  } as DateConstructor;
}
