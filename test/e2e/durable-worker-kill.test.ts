import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { openDurableClient } from "../../src/durable/durable-client.js";
import { createFreshDatabase } from "../../src/session/postgres/test-support/fresh-database.js";
import { testDatabase } from "../../src/session/postgres/test-support/test-database.js";
import { startOpenAIModelServer } from "../../src/testing.js";
import { cliEnvironment, runCli } from "../run-cli.js";
import { requireEndToEnd } from "./end-to-end-only.js";

const database = await testDatabase();
const bin = resolve("bin/ctxkit.js");
/** A worker silent this long is taken for dead: its runs must move within twice that (the watchdog checks every third of it). */
const staleAfterSeconds = 3;
const steps = 3;

/** A `ctxkit worker` process of the built binary, until it is killed. */
function startWorker(url: string, cwd: string, log: string[]): { child: ChildProcess; executorId: Promise<string> } {
  requireEndToEnd("startWorker");
  const child = spawn(process.execPath, [bin, "worker", "--database-url", url, "--concurrency", "8", "--stale-after", String(staleAfterSeconds)], { cwd, env: cliEnvironment(cwd, { CTXKIT_API_KEY: "test-key" }), stdio: ["ignore", "pipe", "pipe"] });
  child.stderr!.on("data", (data: Buffer) => log.push(data.toString()));
  const executorId = new Promise<string>((resolvePromise, reject) => {
    let text = "";
    child.stdout!.on("data", (data: Buffer) => {
      text += data.toString();
      const match = /ctxkit worker (\S+): taking runs/.exec(text);
      if (match) resolvePromise(match[1]!);
    });
    child.once("exit", (code) => reject(new Error(`a worker exited (${code}) before it was ready: ${log.join("")}`)));
  });
  return { child, executorId };
}

describe.skipIf(database.skip !== undefined)(`ctxkit worker killed with SIGKILL${database.skip ? ` (skipped: ${database.skip})` : ""}`, () => {
  const workers: ChildProcess[] = [];
  afterAll(() => {
    for (const child of workers) child.kill("SIGKILL");
  });

  it("has its runs resumed by another worker within the bound, no side effect twice, an interrupted one waiting for a person", { timeout: 240_000 }, async () => {
    const url = await createFreshDatabase(database.url!, "worker_kill");
    const workspace = await mkdtemp(join(tmpdir(), "ctxkit-worker-kill-"));
    await writeFile(join(workspace, "ctxkit.config.json"), JSON.stringify({ model: "scripted-model" }));
    // Each run appends `<run>-<step>` to effects.log in a bash call that takes a second, so a kill
    // lands inside one; the reply follows from the request alone (its task and its tool results),
    // as a model's would, so a run executed again asks for the same things. The calls wait for a
    // `released` file first: on a loaded machine the first worker finished all six runs before the
    // second worker was up, and there was nothing left to kill.
    // Each run first keeps a note (the session's notes, on by default): a run taken over replays
    // requests whose notes line must be the one they had, not the later notes' (session_write_failed).
    const server = await startOpenAIModelServer((body) => {
      const task = String(body.messages.find((message) => message.role === "user")?.content ?? "");
      const run = /effect (\w+)/.exec(task)?.[1] ?? "unknown";
      const done = body.messages.filter((message) => message.role === "tool").length;
      if (done === 0) return { toolCalls: [{ id: `call_${run}_note`, name: "notes_write", arguments: { text: `Run ${run} appends its steps to effects.log.` } }], delayMs: 20 };
      const step = done - 1;
      if (step >= steps) return { text: `Run ${run} is done.`, delayMs: 20 };
      return { toolCalls: [{ id: `call_${run}_${step}`, name: "bash", arguments: { command: `until [ -f released ]; do sleep 0.05; done; sleep 1; echo ${run}-${step} >> effects.log` } }], delayMs: 40 };
    });
    const client = await openDurableClient(url);
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    const log: string[] = [];
    try {
      const first = startWorker(url, workspace, log);
      workers.push(first.child);
      const firstId = await first.executorId;
      // Submitted while only the first worker is up: it usually holds all six, and each worker has room for them all.
      const runIds: string[] = [];
      for (const name of ["a", "b", "c", "d", "e", "f"]) {
        const submitted = await runCli(["submit", "--tools", "bash", "--trust-workspace", "--yes", "--json", `effect ${name}`], { cwd: workspace, env: { CTXKIT_API_KEY: "test-key", CTXKIT_BASE_URL: server.baseURL, CTXKIT_DATABASE_URL: url } });
        expect(submitted.code, submitted.stderr).toBe(0);
        runIds.push((JSON.parse(submitted.stdout.trim().split("\n").at(-1)!) as { id: string }).id);
      }
      const second = startWorker(url, workspace, log);
      workers.push(second.child);
      const secondId = await second.executorId;
      await writeFile(join(workspace, "released"), "");

      // Killed while a side-effecting call of one of its runs has started and not finished. Which
      // worker holds the runs is DBOS's choice (on a loaded CI machine the second one has taken all
      // six): the one holding a call in flight is killed, and the other must take its runs over.
      const inFlight = async () => (await admin.query<{ executor: string }>("SELECT executor FROM ctxkit_tool_calls WHERE state = 'started' AND call_key LIKE 'tool-1-%'")).rows;
      const deadline = Date.now() + 60_000;
      while ((await inFlight()).length === 0 && Date.now() < deadline) await new Promise((resolvePromise) => setTimeout(resolvePromise, 50));
      const victim = (await inFlight())[0]?.executor ?? firstId;
      const [killed, survivor] = victim === secondId ? [second, firstId] : [first, secondId];
      const held = (await admin.query<{ id: string }>("SELECT id FROM ctxkit_runs WHERE executor = $1 AND status = 'running'", [victim])).rows.map((row) => row.id);
      const exited = new Promise((resolvePromise) => killed.child.once("exit", resolvePromise));
      killed.child.kill("SIGKILL");
      const killedAt = Date.now();
      await exited;
      // A statement the worker sent just before it died still commits: read what it left once the server is done with it.
      await new Promise((resolvePromise) => setTimeout(resolvePromise, 500));
      const interrupted = (await admin.query<{ run_id: string }>("SELECT run_id FROM ctxkit_tool_calls WHERE executor = $1 AND state = 'started'", [victim])).rows.map((row) => row.run_id);
      expect(held.length, JSON.stringify({ runs: (await admin.query("SELECT id, status, executor, result FROM ctxkit_runs")).rows, calls: (await admin.query("SELECT * FROM ctxkit_tool_calls")).rows, log })).toBeGreaterThan(0);
      expect(interrupted.length).toBeGreaterThan(0);

      // Every run the dead worker held moves to the survivor within 2 × stale-after (plus a second of slack for a loaded machine).
      let movedAt: number | undefined;
      while (movedAt === undefined && Date.now() < killedAt + 60_000) {
        const rows = (await admin.query<{ executor: string; status: string }>("SELECT executor, status FROM ctxkit_runs WHERE id = ANY($1)", [held])).rows;
        if (rows.every((row) => row.executor === survivor || ["completed", "failed"].includes(row.status))) movedAt = Date.now();
        else await new Promise((resolvePromise) => setTimeout(resolvePromise, 100));
      }
      expect(movedAt, `not resumed; worker log: ${log.join("")}`).toBeDefined();
      expect((movedAt! - killedAt) / 1000).toBeLessThanOrEqual(2 * staleAfterSeconds + 1);

      // A call the kill cut off is never run again silently: its run waits for a person, who checks the effect.
      const effects = async () => (await readFile(join(workspace, "effects.log"), "utf8").catch(() => "")).split("\n").filter(Boolean);
      const paused = new Set<string>();
      for (const id of runIds) {
        let run = await client.wait(id, 90_000);
        while (run.status === "needs_confirmation") {
          expect(run.pausedCall).toMatchObject({ tool: "bash", reason: "interrupted" });
          paused.add(id);
          const step = Number(/^tool-(\d+)-/.exec(run.pausedCall!.callKey)?.[1]);
          const name = /effect (\w+)/.exec(run.task)![1];
          const happened = (await effects()).includes(`${name}-${step}`);
          const answered = await runCli(["runs", "resume", id, happened ? "--decline" : "--approve", "--database-url", url], { cwd: workspace });
          expect(answered.code, answered.stderr).toBe(0);
          run = await client.wait(id, 90_000);
        }
        expect(run.status, JSON.stringify(run)).toBe("completed");
      }
      expect([...paused].sort()).toEqual([...new Set(interrupted)].sort());
      const resumed = (await admin.query<{ id: string }>("SELECT id FROM ctxkit_runs WHERE attempts > 1")).rows.map((row) => row.id);
      expect(resumed.sort()).toEqual([...held].sort());

      // Each step's effect exactly once, in every run.
      const lines = await effects();
      expect(new Set(lines).size).toBe(lines.length);
      expect(lines.sort()).toEqual(["a", "b", "c", "d", "e", "f"].flatMap((name) => [0, 1, 2].map((step) => `${name}-${step}`)).sort());
      // A worker's stderr is for its runs' warnings: no Node warning a user can do nothing about (pg's
      // "client is already executing a query" came from DBOS's pool until the timeout moved into the URL).
      expect(log.join("")).not.toMatch(/DeprecationWarning|\(node:\d+\)/);
    } finally {
      await client.close();
      await admin.end();
      await server.close();
    }
  });
});
