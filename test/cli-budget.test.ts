import { mkdtemp, readdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startOpenAIModelServer, type OpenAIModelServer } from "../src/testing.js";
import { runCli } from "./run-cli.js";

let server: OpenAIModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A model that searches for ever new patterns, so only a limit stops it. */
const searchingForever = () => startOpenAIModelServer((_body, call) => ({ toolCalls: [{ name: "glob", arguments: { pattern: `*.${call}` } }] }));

async function workspace(): Promise<string> {
  const cwd = await mkdtemp(join(tmpdir(), "ctxkit-budget-"));
  await writeFile(join(cwd, "a.txt"), "a\n");
  return cwd;
}

type Event = { type: string; stopReason?: string; usage?: { inputTokens: number; outputTokens: number }; sessionId?: string; delayMs?: number; code?: string };
const eventsOf = (stdout: string) => stdout.trim().split("\n").map((line) => JSON.parse(line) as Event);
const spent = (events: Event[]) => events.reduce((sum, event) => sum + (event.type === "usage" ? event.usage!.inputTokens + event.usage!.outputTokens : 0), 0);
const base = (url: string) => ["--base-url", url, "--model", "m", "--max-output-tokens", "50", "--max-iterations", "100"];

describe("ctxkit run with a budget", () => {
  it("stops a hard token budget before it is exceeded, says so, and sessions show prints spent against the limit", async () => {
    server = await searchingForever();
    const cwd = await workspace();
    const run = await runCli(["run", ...base(server.baseURL), "--budget-tokens", "60000", "--json", "Find every file."], { cwd, timeoutMs: 60_000 });
    expect(run.code).toBe(1);
    const events = eventsOf(run.stdout);
    const end = events.at(-1)!;
    expect(end).toMatchObject({ type: "run_end", stopReason: "budget_exceeded", error: { code: "budget_exceeded" } });
    expect(spent(events)).toBeLessThanOrEqual(60_000);
    expect(events.some((event) => event.type === "backpressure")).toBe(true);
    expect(events.filter((event) => event.type === "warning" && event.code === "budget_threshold")).toHaveLength(1);
    expect(run.stderr).toContain("ctxkit run: stopped (budget_exceeded)");
    // The model saw the budget line in the tail.
    const lastBody = JSON.parse(server.requests.at(-1)!.body) as { messages: Array<{ content: string }> };
    expect(lastBody.messages.at(-1)!.content).toMatch(/<agent_budget>[\s\S]*session: [\d,]+ \/ 60,000 tokens \(\d+%\), hard/);

    const show = await runCli(["sessions", "show", end.sessionId!], { cwd });
    expect(show.code).toBe(0);
    expect(show.stdout).toContain(`budget: session: ${spent(events).toLocaleString("en-US")} / 60,000 tokens`);
    expect(show.stdout).toContain("budget: the last task stopped at its budget");

    // Resumed, the session's earlier spend counts: a limit just above it stops the run at once.
    const resumed = await runCli(["run", ...base(server.baseURL), "--session", end.sessionId!, "--budget-tokens", String(spent(events) + 500), "--json", "Go on."], { cwd, timeoutMs: 60_000 });
    expect(resumed.stderr).toContain("stopped (budget_exceeded)");
    const again = eventsOf(resumed.stdout);
    expect(again.at(-1)).toMatchObject({ stopReason: "budget_exceeded" });
    expect(spent(again)).toBe(0);
  });

  it("asks before going over an approval budget: no terminal declines, a piped yes goes on", async () => {
    server = await searchingForever();
    const cwd = await workspace();
    const declined = await runCli(["run", ...base(server.baseURL), "--budget-tokens", "3000", "--budget-mode", "approval", "Find every file."], { cwd, timeoutMs: 60_000 });
    expect(declined.code).toBe(1);
    expect(declined.stderr).toContain("Go over the budget?");
    expect(declined.stderr).toContain("declined (no answer could be read)");
    expect(declined.stderr).toContain("stopped (budget_exceeded)");

    await server.close();
    server = await searchingForever();
    const approved = await runCli(["run", ...base(server.baseURL), "--max-iterations", "12", "--budget-tokens", "3000", "--budget-mode", "approval", "--json", "Find every file."], { cwd, input: ["y"], timeoutMs: 60_000 });
    expect(eventsOf(approved.stdout).at(-1)).toMatchObject({ stopReason: "max_iterations" });
    expect(approved.stderr.match(/Go over the budget\?/g)).toHaveLength(1);
  });

  it("warns once and goes on with a soft budget", async () => {
    server = await searchingForever();
    const cwd = await workspace();
    const run = await runCli(["run", ...base(server.baseURL), "--max-iterations", "12", "--budget-tokens", "3000", "--budget-mode", "soft", "--json", "Find every file."], { cwd, timeoutMs: 60_000 });
    const events = eventsOf(run.stdout);
    expect(events.at(-1)).toMatchObject({ stopReason: "max_iterations" });
    expect(spent(events)).toBeGreaterThan(3000);
    expect(events.filter((event) => event.type === "warning" && event.code === "budget_exceeded")).toHaveLength(1);
  });

  it("rejects budget flags it cannot apply with exit code 2", async () => {
    const cwd = await workspace();
    const mode = await runCli(["run", "--model", "m", "--budget-mode", "approval", "x"], { cwd });
    expect(mode.code).toBe(2);
    expect(mode.stderr).toContain("--budget-mode needs a limit");
    const tokens = await runCli(["run", "--model", "m", "--budget-tokens", "many", "x"], { cwd });
    expect(tokens.code).toBe(2);
    expect(tokens.stderr).toContain("--budget-tokens must be a positive whole number");
    const cost = await runCli(["run", "--base-url", "http://127.0.0.1:9/v1", "--model", "my-local-model", "--budget-cost", "0.5", "x"], { cwd });
    expect(cost.code).toBe(2);
    expect(cost.stderr).toContain("ctxkit run: --budget-cost needs prices for the model 'my-local-model', which the pricing catalog does not list, and no flag sets a model's prices. Use --budget-tokens instead");
  });

  it("refuses --budget-cost for an unpriced model before it makes anything in the workspace", async () => {
    const cwd = await workspace();
    const cost = await runCli(["run", "--base-url", "http://127.0.0.1:9/v1", "--model", "my-local-model", "--budget-cost", "1", "x"], { cwd });
    expect(cost.code).toBe(2);
    expect(cost.stderr).toContain("--budget-cost needs prices for the model 'my-local-model'");
    // It made the data directory (.ctxkit/ and its .gitignore) first.
    expect(await readdir(cwd)).toEqual(["a.txt"]);
  });

  // submit queued the run and its worker refused it only when it built the agent (a failed run, exit 1 with --wait).
  it("refuses --budget-cost for an unpriced model in submit too, before the database is opened", async () => {
    const cwd = await workspace();
    const args = ["submit", "--database-url", "postgres://ctxkit@127.0.0.1:1/none", "--base-url", "http://127.0.0.1:9/v1", "--model", "my-local-model", "--budget-cost", "0.5", "x"];
    const cost = await runCli(args, { cwd });
    expect(cost.code).toBe(2);
    expect(cost.stderr).toBe("ctxkit submit: --budget-cost needs prices for the model 'my-local-model', which the pricing catalog does not list, and no flag sets a model's prices. Use --budget-tokens instead, or a --model the catalog lists (e.g. gpt-4.1).\n");
  });
});

describe("ctxkit chat with a budget", () => {
  it("stops a turn at the session's hard budget and stays open for the next message", async () => {
    server = await searchingForever();
    const cwd = await workspace();
    const run = await runCli(["chat", ...base(server.baseURL), "--budget-tokens", "6000"], { cwd, input: ["Find every file.", { line: "/exit", waitFor: "[stopped: budget_exceeded]" }], timeoutMs: 60_000 });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("[stopped: budget_exceeded]");
    const sessionId = /Session (\S+) saved/.exec(run.stdout)![1]!;
    const show = await runCli(["sessions", "show", sessionId], { cwd });
    expect(show.stdout).toMatch(/budget: session: [\d,]+ \/ 6,000 tokens \(\d+%\), hard/);
  });
});

describe("ctxkit run with notes", () => {
  it("keeps notes in the workspace's NOTES.md with --notes workspace and shows their size to the model", async () => {
    server = await startOpenAIModelServer([{ toolCalls: [{ name: "notes_write", arguments: { text: "Decision: a.txt is the only file." } }] }, "Noted."]);
    const cwd = await workspace();
    const run = await runCli(["run", "--base-url", server.baseURL, "--model", "m", "--notes", "workspace", "Look around."], { cwd, timeoutMs: 60_000 });
    expect(run.code).toBe(0);
    expect(await readFile(join(cwd, "NOTES.md"), "utf8")).toBe("Decision: a.txt is the only file.\n");
    const second = JSON.parse(server.requests[1]!.body) as { tools: Array<{ function: { name: string } }>; messages: Array<{ content: string }> };
    expect(second.tools.map((tool) => tool.function.name)).toEqual(expect.arrayContaining(["notes_read", "notes_write"]));
    expect(second.messages.at(-1)!.content).toContain("notes: 34 characters in NOTES.md in the workspace");
  });

  it("keeps them in the session's data folder by default, and has no notes tools with --notes off", async () => {
    server = await startOpenAIModelServer([{ toolCalls: [{ name: "notes_write", arguments: { text: "Constraint: read only." } }] }, "Noted.", "Hi."]);
    const cwd = await workspace();
    const run = await runCli(["run", "--base-url", server.baseURL, "--model", "m", "--json", "Look around."], { cwd, timeoutMs: 60_000 });
    const sessionId = eventsOf(run.stdout).at(-1)!.sessionId!;
    expect(await readFile(join(cwd, ".ctxkit", "notes", `${sessionId}.md`), "utf8")).toBe("Constraint: read only.\n");
    await runCli(["run", "--base-url", server.baseURL, "--model", "m", "--notes", "off", "Hello."], { cwd, timeoutMs: 60_000 });
    const third = JSON.parse(server.requests[2]!.body) as { tools: Array<{ function: { name: string } }> };
    expect(third.tools.map((tool) => tool.function.name)).not.toContain("notes_read");
  });
});
