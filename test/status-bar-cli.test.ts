import { copyFile, mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startOpenAIModelServer, type OpenAIModelServer } from "../src/testing.js";
import { runCli } from "./run-cli.js";

let server: OpenAIModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

type WireMessage = { role: string; content?: string };
const bodies = () => server!.requests.map((request) => JSON.parse(request.body) as { messages: WireMessage[]; tools?: Array<{ function: { name: string } }> });

async function workspace(): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), "ctxkit-status-bar-"));
  await writeFile(join(directory, "notes.md"), "The answer is 42.\n");
  return directory;
}

const readTwice = [{ toolCalls: [{ name: "read_file", arguments: { path: "missing.md" } }] }, { toolCalls: [{ name: "read_file", arguments: { path: "notes.md" } }] }, "It says 42."];

describe("ctxkit run with the status bar", () => {
  it("ends every request with <agent_status> by default and prints auto's decision with --json", async () => {
    server = await startOpenAIModelServer(readTwice);
    const run = await runCli(["run", "--base-url", server.baseURL, "--model", "m", "--json", "What do the notes say?"], { cwd: await workspace() });
    expect(run.code).toBe(0);
    const events = run.stdout.trim().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(events.filter((event) => event.type === "status_bar_mode")).toEqual([
      expect.objectContaining({ mode: expect.stringMatching(/^(append|replace)$/), inputs: expect.objectContaining({ cachedInputPriceRatio: 0.1 }) }),
    ]);
    for (const body of bodies()) expect(body.messages.at(-1)!.content).toMatch(/^<agent_status>\n/);
    const [missing, found] = bodies().at(-1)!.messages.filter((message) => message.role === "tool");
    expect(missing!.content).toMatch(/^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\] \[Tool call #1 for 'read_file'\] Error \(not_found\)/);
    expect(missing!.content).toContain('Called with: read_file {"path":"missing.md"}');
    expect(found!.content).toMatch(/\[Tool call #2 for 'read_file'\]/);
    expect(bodies()[0]!.tools!.map((tool) => tool.function.name)).toContain("rewrite_todo_list");
  });

  it("honours --status-bar replace and the --no-* switches", async () => {
    server = await startOpenAIModelServer(readTwice);
    const cwd = await workspace();
    const run = await runCli(["run", "--base-url", server.baseURL, "--model", "m", "--status-bar", "replace", "--no-timestamps", "--no-todo", "--no-errors", "Notes?"], { cwd });
    expect(run.code).toBe(0);
    const last = bodies().at(-1)!;
    // Replace: no stored status, the only status is the tail.
    expect(last.messages.filter((message) => message.content?.startsWith("<agent_status>"))).toHaveLength(1);
    expect(last.messages.at(-1)!.content).not.toMatch(/goal:|todo:/);
    expect(last.messages.find((message) => message.role === "tool")!.content).toMatch(/^\[Tool call #1 for 'read_file'\] Error \(not_found\): [^\n]*$/);
    expect(last.tools!.map((tool) => tool.function.name)).not.toContain("rewrite_todo_list");
  });

  it("sends no status with --status-bar off, and rejects an unknown mode", async () => {
    server = await startOpenAIModelServer(readTwice);
    const cwd = await workspace();
    const run = await runCli(["run", "--base-url", server.baseURL, "--model", "m", "--status-bar", "off", "Notes?"], { cwd });
    expect(run.code).toBe(0);
    expect(bodies().every((body) => body.messages.every((message) => !message.content?.includes("<agent_status>")))).toBe(true);
    const bad = await runCli(["run", "--model", "m", "--status-bar", "sometimes", "x"], { cwd });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("Unknown status bar mode 'sometimes'. Use one of: auto, replace, append, off.");
  });
});

describe("ctxkit bench status-bar", () => {
  it("previews the experiment 2-8 request with and without the status bar", async () => {
    const run = await runCli(["bench", "status-bar", "--preview"], { cwd: await workspace() });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("WITHOUT the status bar");
    expect(run.stdout).toContain('limit: Maximum calls to "Xfinity" (phone_call company) reached (3/3); do not call again');
    expect(run.stdout).toMatch(/auto would (append|replace) here: αSN\/2 = /);
  });

  it("runs the task harness offline with scripted solutions", async () => {
    const run = await runCli(["bench", "status-bar", "--offline", "--tasks", "call-limit,missing-file", "--arms", "all-on,all-off"], { cwd: await workspace(), timeoutMs: 60_000 });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/all-on\s+1\/1\s+1\/1\s+2\/2/);
    expect(run.stdout).toMatch(/all-off\s+1\/1\s+1\/1\s+2\/2/);
  });

  it("costs replace, append and auto over recorded runs and writes JSON", async () => {
    const cwd = await workspace();
    const fixtures = resolve("src/inspect/importers/fixtures");
    await mkdir(join(cwd, "corpus", "swe-gemini"), { recursive: true });
    await mkdir(join(cwd, "corpus", "tau-bench", "trajectories"), { recursive: true });
    await copyFile(join(fixtures, "mini-swe-agent.traj.json"), join(cwd, "corpus", "swe-gemini", "task.traj.json"));
    await copyFile(join(fixtures, "tau-bench-trajectories.json"), join(cwd, "corpus", "tau-bench", "trajectories", "gpt-4o-airline.json"));
    const run = await runCli(["bench", "status-bar", "--cost", "--corpus", "corpus", "--out", "out/cost.json"], { cwd, timeoutMs: 60_000 });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/run\s+calls\s+S\s+R\s+α\s+auto chose\s+replace\s+append\s+auto\s+cheapest/);
    expect(run.stdout).toContain("JSON written to out/cost.json");
    const json = await runCli(["bench", "status-bar", "--cost", "--corpus", "corpus", "--json"], { cwd, timeoutMs: 60_000 });
    const report = JSON.parse(json.stdout) as { rows: Array<{ costs: Record<string, Record<string, { promptTokens: number; cachedTokens: number }>> }>; totals: unknown[] };
    expect(report.rows.length).toBeGreaterThan(1);
    for (const row of report.rows) {
      // Append keeps every status, so it never sends fewer prompt tokens than replace.
      expect(row.costs.kv!.append!.promptTokens).toBeGreaterThanOrEqual(row.costs.kv!.replace!.promptTokens);
    }
    const skipped = await runCli(["bench", "status-bar", "--cost", "--corpus", "nowhere"], { cwd });
    expect(skipped.code).toBe(0);
    expect(skipped.stderr).toContain("skipped — no corpus at");
  });
});
