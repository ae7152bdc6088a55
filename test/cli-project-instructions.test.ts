import { mkdir, mkdtemp, open, readFile, writeFile } from "node:fs/promises";
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

type Body = { messages: Array<{ role: string; content?: unknown }>; temperature?: number; max_tokens?: number; max_completion_tokens?: number };
const bodies = () => server!.requests.map((request) => JSON.parse(request.body) as Body);
const systemOf = (body: Body) => String(body.messages.find((message) => message.role === "system")?.content ?? "");
// The last user message that is not the status-bar tail.
const lastUser = (body: Body) =>
  String(body.messages.filter((message) => message.role === "user" && !String(message.content).startsWith("<agent_status>")).at(-1)?.content ?? "");

/** A repository with AGENTS.md at its root and CLAUDE.md in the package the agent works in. */
async function repository(): Promise<{ root: string; workspace: string }> {
  const root = await mkdtemp(join(tmpdir(), "ctxkit-repo-"));
  await mkdir(join(root, ".git"));
  await writeFile(join(root, "AGENTS.md"), "Run tests with `make check`.\n");
  const workspace = join(root, "packages", "app");
  await mkdir(workspace, { recursive: true });
  await writeFile(join(workspace, "CLAUDE.md"), "Use tabs in this package.\n");
  return { root, workspace };
}

describe("project instructions", () => {
  it("puts AGENTS.md and CLAUDE.md from the workspace up to the repository root in the system prompt", async () => {
    server = await startOpenAIModelServer(["Ok.", "Ok."]);
    const { workspace } = await repository();
    await runCli(["run", "--base-url", server.baseURL, "--model", "m", "hello"], { cwd: workspace });
    await runCli(["run", "--base-url", server.baseURL, "--model", "m", "--no-project-instructions", "hello"], { cwd: workspace });
    const [withInstructions, without] = bodies().map(systemOf);
    expect(withInstructions).toContain("Run tests with `make check`.");
    expect(withInstructions).toContain("Use tabs in this package.");
    // Outer folder first: the instructions nearest the workspace come last and win.
    expect(withInstructions!.indexOf("make check")).toBeLessThan(withInstructions!.indexOf("Use tabs"));
    expect(without).not.toContain("make check");
  });

  it("reads only the start of a huge AGENTS.md and says it was cut (a 3 GiB file does not stop the run)", async () => {
    server = await startOpenAIModelServer(["Ok."]);
    const workspace = await mkdtemp(join(tmpdir(), "ctxkit-repo-"));
    const bytes = 3 * 1024 ** 3;
    // A sparse file: its size is what matters, and it takes no room on disk.
    const handle = await open(join(workspace, "AGENTS.md"), "w");
    await handle.write("# Rules\nUse tabs.\n");
    await handle.truncate(bytes);
    await handle.close();
    const run = await runCli(["run", "--base-url", server.baseURL, "--model", "m", "hello"], { cwd: workspace });
    expect(run.stderr).not.toMatch(/ERR_FS_FILE_TOO_LARGE|RangeError/);
    expect(run.code).toBe(0);
    const system = systemOf(bodies()[0]!);
    expect(system).toContain("# Rules\nUse tabs.");
    expect(system).toContain(`[… cut: the file has ${bytes} bytes, only the first 32000 are shown]`);
  });

  it("keeps the system prompt of a resumed session and announces changed instructions as a message (--continue)", async () => {
    server = await startOpenAIModelServer(["First.", "Second.", "Third."]);
    const { root, workspace } = await repository();
    await runCli(["run", "--base-url", server.baseURL, "--model", "m", "hello"], { cwd: workspace });
    await writeFile(join(root, "AGENTS.md"), "Run tests with `npm test` now.\n");
    const resumed = await runCli(["run", "--base-url", server.baseURL, "--model", "m", "--continue", "again"], { cwd: workspace });
    expect(resumed.code).toBe(0);
    const second = await runCli(["run", "--base-url", server.baseURL, "--model", "m", "-c", "and again"], { cwd: workspace });
    expect(second.code).toBe(0);
    const [first, afterChange, later] = bodies();
    // The same session: the second call extends the first one's messages, with the same system prompt.
    expect(systemOf(afterChange!)).toBe(systemOf(first!));
    expect(afterChange!.messages.length).toBeGreaterThan(first!.messages.length);
    expect(lastUser(afterChange!)).toMatch(/\[The project instructions changed since this session started \(version [0-9a-f]{12}\)\. They now read:\]/);
    expect(lastUser(afterChange!)).toContain("Run tests with `npm test` now.");
    expect(lastUser(afterChange!)).toMatch(/again$/);
    // Announced once, not on every later message.
    expect(lastUser(later!)).not.toContain("project instructions changed");
    const sessions = await runCli(["sessions", "list"], { cwd: workspace });
    expect(sessions.stdout.trim().split("\n")).toHaveLength(1);
  });
});

describe("run options for debugging", () => {
  it("sends --system (text or @file), --temperature and --max-output-tokens, and logs every request with the key masked", async () => {
    server = await startOpenAIModelServer(["One.", "Two."]);
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-debug-"));
    await writeFile(join(cwd, "prompt.md"), "You are a pirate.\n");
    const key = "sk-test-0123456789abcdefSECRET";
    const first = await runCli(
      ["run", "--base-url", server.baseURL, "--model", "m", "--api-key", key, "--system", "@prompt.md", "--temperature", "0.2", "--max-output-tokens", "300", "--log-requests", "requests.jsonl", "hi"],
      { cwd },
    );
    expect(first.code).toBe(0);
    await runCli(["run", "--base-url", server.baseURL, "--model", "m", "--system", "Be brief.", "hi"], { cwd });
    const [sent, second] = bodies();
    expect(systemOf(sent!)).toContain("You are a pirate.");
    expect(sent!.temperature).toBe(0.2);
    expect(sent!.max_tokens ?? sent!.max_completion_tokens).toBe(300);
    expect(systemOf(second!)).toContain("Be brief.");

    const log = (await readFile(join(cwd, "requests.jsonl"), "utf8")).trim().split("\n").map((line) => JSON.parse(line) as { url: string; headers: Record<string, string>; body: Body });
    expect(log).toHaveLength(1);
    expect(log[0]!.url).toBe(`${server.baseURL}/chat/completions`);
    expect(log[0]!.body.temperature).toBe(0.2);
    expect(JSON.stringify(log)).not.toContain(key);
    expect(log[0]!.headers.authorization).toMatch(/…/);

    const bad = await runCli(["run", "--base-url", server.baseURL, "--model", "m", "--temperature", "hot", "hi"], { cwd });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--temperature must be a number from 0 to 2");
  });
});
