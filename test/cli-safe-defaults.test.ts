import { existsSync } from "node:fs";
import { appendFile, mkdir, mkdtemp, readFile, readdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startLoopbackServer, startOpenAIModelServer, type LoopbackServer } from "../src/testing.js";
import { anthropicSse, blockDelta, blockStart, blockStop, messageDelta, messageStart, messageStop } from "../src/providers/anthropic/test-support/fixtures.js";
import { runCli } from "./run-cli.js";

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const temporary = () => mkdtemp(join(tmpdir(), "ctxkit-safe-"));
const lastEvent = (stdout: string) => JSON.parse(stdout.trim().split("\n").at(-1)!) as { sessionId: string; stopReason: string };

describe("ctxkit safe defaults", () => {
  it("refuses a workspace that does not exist instead of creating it", async () => {
    const cwd = await temporary();
    const missing = join(cwd, "no-such-folder");
    const run = await runCli(["run", "--workspace", missing, "--model", "m", "--base-url", "http://127.0.0.1:9/v1", "task"], { cwd });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`The workspace ${missing} does not exist`);
    expect(existsSync(missing)).toBe(false);
  });

  it("refuses to run the demo in a folder with files unless --force", async () => {
    const cwd = await temporary();
    await mkdir(join(cwd, "mine"));
    await writeFile(join(cwd, "mine", "notes.txt"), "keep me\n");
    const refused = await runCli(["demo", "--dir", "mine"], { cwd });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("is not empty");
    expect(await readdir(join(cwd, "mine"))).toEqual(["notes.txt"]);
    const forced = await runCli(["demo", "--dir", "mine", "--force"], { cwd, timeoutMs: 120_000 });
    expect(forced.code).toBe(0);
    expect(await readFile(join(cwd, "mine", "notes.txt"), "utf8")).toBe("keep me\n");
  });

  it("exits 1 naming --yes and allow when a write was declined for want of a terminal", async () => {
    server = await startOpenAIModelServer([{ toolCalls: [{ name: "write_file", arguments: { path: "a.txt", content: "x\n" } }] }, "I could not write it."]);
    const cwd = await temporary();
    const run = await runCli(["run", "--base-url", (server as LoopbackServer & { baseURL: string }).baseURL, "--model", "m", "write a.txt"], { cwd });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("declined write_file because there was no terminal to ask");
    expect(run.stderr).toContain("--yes");
    expect(run.stderr).toContain('"allow"');
    expect(existsSync(join(cwd, "a.txt"))).toBe(false);
  });

  it("marks a session whose task failed in sessions list", async () => {
    server = await startLoopbackServer([{ status: 400, headers: { "content-type": "application/json" }, body: JSON.stringify({ error: { message: "bad model" } }) }]);
    const cwd = await temporary();
    const run = await runCli(["run", "--base-url", `${server.url}/v1`, "--model", "m", "--json", "hello"], { cwd });
    expect(run.code).toBe(1);
    const list = await runCli(["sessions", "list"], { cwd });
    expect(list.stdout).toMatch(new RegExp(`${lastEvent(run.stdout).sessionId} .*\\[last task: error\\]`));
  });

  it("answers a web page at the base URL with 'not an event stream — check the base URL'", async () => {
    server = await startLoopbackServer([{ status: 200, headers: { "content-type": "text/html; charset=utf-8" }, body: "<!doctype html><title>Welcome</title>" }]);
    const cwd = await temporary();
    const run = await runCli(["run", "--base-url", server.url, "--model", "m", "hello"], { cwd });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("not an event stream — check the base URL");
    expect(run.stderr).not.toContain("closed the stream");
  });

  it("accepts ANTHROPIC_BASE_URL without /v1, as Anthropic's own tools do", async () => {
    server = await startLoopbackServer(() =>
      anthropicSse([messageStart(), blockStart(0, { type: "text", text: "" }), blockDelta(0, { type: "text_delta", text: "Hi from Claude." }), blockStop(0), messageDelta("end_turn", 3), messageStop()]),
    );
    const cwd = await temporary();
    const run = await runCli(["run", "--provider", "anthropic", "--model", "claude-test", "hello"], { cwd, env: { ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: "sk-ant-test-key-0123456789" } });
    expect(run.stderr).not.toContain("error");
    expect(run.code).toBe(0);
    expect(server.requests[0]!.path).toBe("/v1/messages");
    expect(run.stdout).toContain("Hi from Claude.");
  });

  it("gives CLI advice, not library advice, for a missing key", async () => {
    const run = await runCli(["run", "--provider", "anthropic", "--model", "claude-test", "hello"], { cwd: await temporary() });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("Pass --api-key <key>, or set ANTHROPIC_API_KEY or CTXKIT_API_KEY.");
    expect(run.stderr).not.toContain("createAnthropic");
  });

  it("keeps the bytes of a torn last line in <session>.torn when it repairs the session", async () => {
    server = await startOpenAIModelServer(["First.", "Second."]);
    const cwd = await temporary();
    const baseURL = (server as LoopbackServer & { baseURL: string }).baseURL;
    const first = await runCli(["run", "--base-url", baseURL, "--model", "m", "--json", "hello"], { cwd });
    const { sessionId } = lastEvent(first.stdout);
    const file = join(cwd, ".ctxkit", "sessions", `${sessionId}.jsonl`);
    const torn = '{"type":"message","message":{"role":"user","content":"cut-off-mid-wri';
    await appendFile(file, torn);
    const second = await runCli(["run", "--base-url", baseURL, "--model", "m", "--session", sessionId, "again"], { cwd });
    expect(second.code).toBe(0);
    expect(second.stderr).toContain(`${file}.torn`);
    expect(await readFile(`${file}.torn`, "utf8")).toBe(torn);
    expect(await readFile(file, "utf8")).not.toContain(torn);
  });
});
