import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDurableBuilders } from "../src/cli/durable/durable-builders.js";
import { openDurableClient } from "../src/durable/durable-client.js";
import { startDurableWorker } from "../src/durable/start-durable-worker.js";
import { everythingServer, scriptServer } from "../src/mcp/test-support/mcp-test-servers.js";
import { createPostgresSessionStore } from "../src/session/create-postgres-session-store.js";
import { createFreshDatabase } from "../src/session/postgres/test-support/fresh-database.js";
import { testDatabase } from "../src/session/postgres/test-support/test-database.js";
import { startOpenAIModelServer, type OpenAIModelServer } from "../src/testing.js";
import { cliEnvironment, runCli } from "./run-cli.js";

const database = await testDatabase();

interface Body {
  messages: Array<{ role: string; content?: unknown }>;
}

/**
 * Durable runs with real MCP servers over stdio, submitted by the CLI and run by a real worker with
 * the CLI's builders: server-everything (npm) and the tests' script server. Every run is submitted
 * before the worker starts, so a test can leave a crash's traces for it first.
 */
describe.skipIf(database.skip !== undefined)(`a submitted run with MCP servers${database.skip ? ` (skipped: ${database.skip})` : ""}`, () => {
  let url: string;
  let pool: pg.Pool;
  let client: Awaited<ReturnType<typeof openDurableClient>>;
  let worker: Awaited<ReturnType<typeof startDurableWorker>> | undefined;
  let model: OpenAIModelServer;
  const runs: Record<string, string> = {};

  // The model calls the tool the task names (with the call id the task names), then answers.
  const toolOfTask: Record<string, { id: string; name: string; arguments: Record<string, unknown> }> = {
    "Show the server's environment.": { id: "call-env", name: "mcp__everything__get-env", arguments: {} },
    "Show the other server's environment.": { id: "call-env", name: "mcp__everything__get-env", arguments: {} },
    "Put the value.": { id: "call-put", name: "mcp__script__put", arguments: { value: "v1" } },
    "Tell the pid.": { id: "call-pid", name: "mcp__script__pid", arguments: {} },
  };

  beforeAll(async () => {
    url = await createFreshDatabase(database.url!, "durable_mcp");
    pool = new pg.Pool({ connectionString: url, max: 2 });
    client = await openDurableClient(url);
    model = await startOpenAIModelServer((body: Body) => {
      if (body.messages.some((message) => message.role === "tool")) return "Done.";
      const task = body.messages.filter((message) => message.role === "user").map((message) => String(JSON.stringify(message.content))).join(" ");
      const call = Object.entries(toolOfTask).find(([text]) => task.includes(text))?.[1];
      return call ? { toolCalls: [call] } : "No tool for this task.";
    });
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-durable-mcp-"));
    await writeFile(join(cwd, "ctxkit.config.json"), JSON.stringify({ model: "scripted-model", tools: ["read_file"] }));
    const submit = async (task: string, servers: Record<string, unknown>) => {
      const file = join(cwd, `servers-${Object.keys(runs).length}.json`);
      await writeFile(file, JSON.stringify({ mcpServers: servers }));
      const environment = cliEnvironment(cwd, { CTXKIT_API_KEY: "test-key", CTXKIT_BASE_URL: model.baseURL, CTXKIT_DATABASE_URL: url });
      const submitted = await runCli(["submit", "--trust-workspace", "--yes", "--mcp-config", file, "--json", task], { cwd, env: environment });
      expect(submitted.code, submitted.stderr).toBe(0);
      return (JSON.parse(submitted.stdout.trim().split("\n").at(-1)!) as { id: string }).id;
    };
    runs.env = await submit("Show the server's environment.", { everything: { ...everythingServer(), env: { PROBE_TOKEN: "submitter-SECRET" } } });
    runs.missing = await submit("Show the other server's environment.", { everything: { ...everythingServer(), env: { ABSENT_TOKEN: "submitter-SECRET" } } });
    runs.put = await submit("Put the value.", { script: scriptServer() });
    runs.pid = await submit("Tell the pid.", { script: scriptServer() });
    // What a worker killed inside each run's first tool call leaves: the call started, never finished.
    for (const [run, key] of [[runs.put, "tool-0-call-put"], [runs.pid, "tool-0-call-pid"]] as const) {
      await pool.query("INSERT INTO ctxkit_tool_calls (run_id, call_key, tool, state, executor) VALUES ($1, $2, 'mcp', 'started', 'dead-worker')", [run, key]);
    }
    // The worker's own environment has the key and PROBE_TOKEN, not ABSENT_TOKEN; its MCP servers get no other variable of it.
    worker = await startDurableWorker({ connectionString: url, concurrency: 4, builders: createDurableBuilders({ CTXKIT_API_KEY: "test-key", PROBE_TOKEN: "worker-SECRET" }, pool) });
  }, 120_000);
  afterAll(async () => {
    await worker?.stop();
    await client?.close();
    await pool?.end();
    await model?.close();
  }, 60_000);

  it("fills an MCP server's env value left out of the run's record from the worker's environment, and the server gets it", { timeout: 120_000 }, async () => {
    const record = JSON.stringify((await pool.query("SELECT * FROM ctxkit_runs WHERE id = $1", [runs.env])).rows[0]);
    expect(record).toContain("PROBE_TOKEN");
    expect(record).not.toContain("submitter-SECRET");
    const done = await client.wait(runs.env!, 90_000);
    expect(done.result?.error).toBeUndefined();
    expect(done).toMatchObject({ status: "completed", result: { finalText: "Done." } });
    const sessions = await createPostgresSessionStore({ connectionString: url });
    try {
      const session = await sessions.load(done.sessionId);
      const result = String(JSON.stringify(session.messages.find((message) => message.role === "tool")?.content));
      // server-everything's get-env prints its process's environment: the worker's value reached it.
      expect(result).toContain("PROBE_TOKEN");
      expect(result).toContain("worker-SECRET");
      expect(result).not.toContain("submitter-SECRET");
      // Only the variables its entry names come from the worker's environment: not its key.
      expect(result).not.toContain("test-key");
    } finally {
      await sessions.close();
    }
  });

  it("fails a run whose MCP env value the worker does not have, naming the variable and the worker's host", { timeout: 120_000 }, async () => {
    const done = await client.wait(runs.missing!, 90_000);
    expect(done).toMatchObject({ status: "failed", result: { error: { code: "option_invalid", message: expect.stringContaining("environment variable ABSENT_TOKEN of MCP server 'everything'") } } });
  });

  it("re-runs an interrupted call of an MCP tool annotated idempotentHint after a crash, and pauses on one that is not", { timeout: 120_000 }, async () => {
    const put = await client.wait(runs.put!, 90_000);
    expect(put.result?.error).toBeUndefined();
    expect(put).toMatchObject({ status: "completed", result: { finalText: "Done." } });
    const pid = await client.wait(runs.pid!, 90_000);
    expect(pid).toMatchObject({ status: "needs_confirmation", pausedCall: { tool: "mcp__script__pid", callKey: "tool-0-call-pid", reason: "interrupted" } });
  });
});
