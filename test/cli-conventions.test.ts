import { existsSync } from "node:fs";
import { mkdtemp, readFile, readdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { createServer, type AddressInfo } from "node:net";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startLoopbackServer, startOpenAIModelServer, type LoopbackServer } from "../src/testing.js";
import { runCli } from "./run-cli.js";

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const temporary = () => mkdtemp(join(tmpdir(), "ctxkit-conventions-"));

describe("ctxkit usage errors", () => {
  it("answers an unknown flag with exit code 2, the closest flag and the command's help", async () => {
    const run = await runCli(["run", "--modle", "m", "task"], { cwd: await temporary() });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("ctxkit run: unknown option --modle (did you mean --model?).");
    expect(run.stderr).toContain('Usage: ctxkit run [options] "<task>"');
    expect(run.stderr).not.toMatch(/To specify a positional argument|ERR_PARSE_ARGS/);
    expect(run.stdout).toBe("");
  });

  it("says how to pass a value that starts with a dash instead of calling the option a flag without a value", async () => {
    const run = await runCli(["run", "--model", "m", "--max-iterations", "-3", "task"], { cwd: await temporary() });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("ctxkit run: option --max-iterations needs a value; write a value that starts with '-' as --max-iterations=<value>.");
    expect(run.stderr).not.toContain("takes no value");
  });

  it("uses exit code 2 for missing values and arguments in every command", async () => {
    const cwd = await temporary();
    const runs = await Promise.all([
      runCli(["chat", "--model"], { cwd, timeoutMs: 90_000 }),
      runCli(["config", "--max-iterations", "zero"], { cwd, timeoutMs: 90_000 }),
      runCli(["inspect"], { cwd, timeoutMs: 90_000 }),
      runCli(["sessions", "rm"], { cwd, timeoutMs: 90_000 }),
      runCli(["bench", "tokens", "--nope"], { cwd, timeoutMs: 90_000 }),
      runCli(["demo", "--dirr", "x"], { cwd, timeoutMs: 90_000 }),
      runCli(["runn"], { cwd, timeoutMs: 90_000 }),
    ]);
    expect(runs.map((run) => run.code)).toEqual([2, 2, 2, 2, 2, 2, 2]);
    expect(runs[0]!.stderr).toContain("option --model needs a value.");
    expect(runs[4]!.stderr).toContain("Usage: ctxkit bench tokens");
    expect(runs[5]!.stderr).toContain("did you mean --dir?");
    expect(runs[6]!.stderr).toContain("did you mean 'run'?");
  }, 120_000);

  it("answers 'ctxkit help <command>' with that command's help, and a bare 'ctxkit' as a usage error on stderr", async () => {
    const cwd = await temporary();
    const commands = ["run", "chat", "sessions", "skills", "inspect", "view", "replay", "bench", "lint", "config", "demo"];
    const [bare, ...helps] = await Promise.all([runCli([], { cwd }), ...commands.map((command) => runCli(["help", command], { cwd }))]);
    expect(bare.code).toBe(2);
    expect(bare.stdout).toBe("");
    expect(bare.stderr).toContain("ctxkit: say which command to run.");
    expect(bare.stderr).toContain("Usage: ctxkit <command> [options]");
    for (const [index, run] of helps.entries()) {
      expect(run.code, commands[index]).toBe(0);
      expect(run.stdout, commands[index]).toContain(`ctxkit ${commands[index]}`);
      expect(run.stdout, commands[index]).not.toContain("Usage: ctxkit <command> [options]");
    }
    // Help for a command that does not exist answers like the command itself: unknown, the nearest name, exit 2.
    const unknown = await runCli(["help", "rnu"], { cwd });
    expect(unknown.code).toBe(2);
    expect(unknown.stdout).toBe("");
    expect(unknown.stderr).toContain("ctxkit: unknown command 'rnu' (did you mean 'run'?).");
    const plain = await runCli(["help"], { cwd });
    expect(plain.code).toBe(0);
    expect(plain.stdout).toContain("Usage: ctxkit <command> [options]");
  }, 120_000);

  it("documents --version and the exit codes in --help, and lists chat's and config's options", async () => {
    const cwd = await temporary();
    const [help, version, chat, config] = await Promise.all([
      runCli(["--help"], { cwd }),
      runCli(["--version"], { cwd }),
      runCli(["chat", "--help"], { cwd }),
      runCli(["config", "--help"], { cwd }),
    ]);
    expect(help.stdout).toContain("--version");
    expect(help.stdout).toMatch(/Exit codes: 0 .*2 a usage error.*130 interrupted/s);
    expect(version.stdout.trim()).toBe(JSON.parse(await readFile("package.json", "utf8")).version);
    for (const text of [chat.stdout, config.stdout]) {
      for (const flag of ["--model", "--base-url", "--workspace", "--tools", "--continue", "--system"]) expect(text).toContain(flag);
    }
  });

  it("speaks to users, not to the project's history, in --help", async () => {
    const cwd = await temporary();
    const texts = await Promise.all(["--help", "bench --help", "run --help", "replay --help", "bench kv-cache --help", "bench status-bar --help", "bench tokens --help"].map((args) => runCli(args.split(" "), { cwd })));
    for (const { stdout } of texts) expect(stdout).not.toMatch(/the seed|issue \d|experiments? \d|αSN/);
    const readme = await readFile("README.md", "utf8");
    expect(readme).not.toMatch(/the seed|seed's|issue \d\b|experiments? \d|αSN\/2 < \(1−α\)R, at each/i);
    // The status bar's cost rule is given with its letters explained.
    expect(readme).toMatch(/αSN\/2 < \(1−α\)R — α the cached price as a share of the\s+uncached one, S the status's tokens, N/);
  });

  it("refuses an unknown tool in config as run does", async () => {
    const run = await runCli(["config", "--tools", "read_file,foo"], { cwd: await temporary() });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("Unknown tool: foo.");
  });
});

describe("ctxkit output streams", () => {
  it("keeps stdout for results: the summary (and with --verbose the status-bar note) goes to stderr, an error is printed once", async () => {
    server = await startOpenAIModelServer(["The answer is 42.", "Still 42."]);
    const cwd = await temporary();
    const ok = await runCli(["run", "--base-url", (server as { baseURL: string } & LoopbackServer).baseURL, "--model", "m", "What is the answer?"], { cwd });
    expect(ok.code).toBe(0);
    expect(ok.stdout.trim()).toBe("The answer is 42.");
    // The status bar's cost model is not for every run: only --verbose prints it.
    expect(ok.stderr).not.toContain("status bar");
    expect(ok.stderr).toContain("[final_answer] 1 model call(s)");
    const verbose = await runCli(["run", "--base-url", (server as { baseURL: string } & LoopbackServer).baseURL, "--model", "m", "--verbose", "And now?"], { cwd });
    expect(verbose.code).toBe(0);
    expect(verbose.stdout.trim()).toBe("Still 42.");
    expect(verbose.stderr).toMatch(/\[status bar: (replace|append) — /);

    await server.close();
    server = await startLoopbackServer([{ status: 400, headers: { "content-type": "application/json" }, body: JSON.stringify({ error: { message: "model 'm' does not exist" } }) }]);
    const failed = await runCli(["run", "--base-url", `${server.url}/v1`, "--model", "m", "hello"], { cwd });
    expect(failed.code).toBe(1);
    expect(failed.stdout).toBe("");
    expect(`${failed.stdout}${failed.stderr}`.split("model 'm' does not exist")).toHaveLength(2);
    expect(failed.stderr).toContain("ctxkit run: stopped (error)");
  });

  it("quotes a server's refusal as one sentence: no doubled period after the vendor's own, no HTML markup from a proxy", async () => {
    const cwd = await temporary();
    const openAIRefusal = "Incorrect API key provided: sk-xx***. You can find your API key at https://platform.openai.com/account/api-keys.";
    server = await startLoopbackServer([{ status: 401, headers: { "content-type": "application/json" }, body: JSON.stringify({ error: { message: openAIRefusal, type: "invalid_request_error", code: "invalid_api_key" } }) }]);
    const refused = await runCli(["run", "--base-url", `${server.url}/v1`, "--model", "m", "hello"], { cwd });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`answered 401: ${openAIRefusal} Check the API key`);
    await server.close();
    const page = "<html>\r\n<head><title>403 Forbidden</title></head>\r\n<body>\r\n<center><h1>403 Forbidden</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n";
    server = await startLoopbackServer([{ status: 403, headers: { "content-type": "text/html" }, body: page }]);
    const forbidden = await runCli(["run", "--base-url", `${server.url}/v1`, "--model", "m", "hello"], { cwd });
    expect(forbidden.code).toBe(1);
    expect(forbidden.stderr).toContain("answered 403: 403 Forbidden nginx. Check the API key");
    expect(forbidden.stderr).not.toContain("<");
    await server.close();
    // A vendor sentence that ends in '?' or '!' gets no extra period.
    server = await startLoopbackServer([{ status: 400, headers: { "content-type": "application/json" }, body: JSON.stringify({ error: { message: "Unknown parameter 'foo'. Did you mean 'bar'?" } }) }]);
    const asked = await runCli(["run", "--base-url", `${server.url}/v1`, "--model", "m", "hello"], { cwd });
    expect(asked.stderr).toContain("answered 400: Unknown parameter 'foo'. Did you mean 'bar'?");
    expect(asked.stderr).not.toContain("?.");
  });

  it("honours FORCE_COLOR on a pipe, and NO_COLOR without it", async () => {
    const cwd = await temporary();
    const [forced, plain] = await Promise.all([
      runCli(["demo", "--dir", "forced"], { cwd, env: { NO_COLOR: "", FORCE_COLOR: "1" }, timeoutMs: 120_000 }),
      runCli(["demo", "--dir", "plain"], { cwd, timeoutMs: 120_000 }),
    ]);
    expect(forced.stdout).toContain("\u001b[1mctxkit demo");
    expect(plain.stdout).not.toContain("\u001b[");
  });
});

describe("ctxkit view", () => {
  it("names a port in use and an impossible one instead of Node's EADDRINUSE text", async () => {
    const cwd = await temporary();
    const transcript = resolve("src/inspect/importers/fixtures/claude-code-opus-4-6-cache-expiry.jsonl");
    const holder = createServer();
    await new Promise<void>((done) => holder.listen(0, "127.0.0.1", done));
    const busy = (holder.address() as AddressInfo).port;
    try {
      const inUse = await runCli(["view", transcript, "--no-open", "--tokenizer", "estimate", "--port", String(busy)], { cwd });
      expect(inUse.code).toBe(1);
      expect(inUse.stdout).toBe("");
      expect(inUse.stderr).toBe(`ctxkit view: Port ${busy} on 127.0.0.1 is in use; choose another port (--port), or 0 for a free one.\n`);
    } finally {
      await new Promise((done) => holder.close(done));
    }
    const impossible = await runCli(["view", transcript, "--no-open", "--port", "99999"], { cwd });
    expect(impossible.code).toBe(2);
    expect(impossible.stderr).toContain("--port must be a whole number from 0 to 65535");
  });
});

describe("ctxkit sessions, inspect and replay", () => {
  it("shows token usage in sessions show, inspects a folder, and removes a session with sessions rm", async () => {
    server = await startOpenAIModelServer(["Hello back."]);
    const cwd = await temporary();
    const run = await runCli(["run", "--base-url", (server as { baseURL: string } & LoopbackServer).baseURL, "--model", "gpt-4o", "--json", "hello"], { cwd });
    const sessionId = String((JSON.parse(run.stdout.trim().split("\n").at(-1)!) as { sessionId: string }).sessionId);

    const show = await runCli(["sessions", "show", sessionId], { cwd });
    expect(show.stdout).toMatch(/usage: [\d,]+ prompt tokens \(\d+\.\d% cached\), \d+ output, 1 call/);
    expect(show.stdout).toContain("cost $");

    const inspect = await runCli(["inspect", join(".ctxkit", "sessions"), "--tokenizer", "estimate"], { cwd, timeoutMs: 60_000 });
    expect(inspect.code).toBe(0);
    expect(inspect.stdout).toContain(sessionId);

    const removed = await runCli(["sessions", "rm", sessionId], { cwd });
    expect(removed.code).toBe(0);
    expect(existsSync(join(cwd, ".ctxkit", "sessions", `${sessionId}.jsonl`))).toBe(false);
    const again = await runCli(["sessions", "rm", sessionId], { cwd });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(sessionId);
  });

  it("writes replay results to a temporary folder outside the project, and to --out when given", async () => {
    const cwd = await temporary();
    const fixture = resolve("src/inspect/importers/fixtures/mini-swe-agent.traj.json");
    const run = await runCli(["replay", fixture, "--policy", "none", "--window", "32000"], { cwd, timeoutMs: 120_000 });
    expect(run.code).toBe(0);
    expect(run.stderr).not.toContain("replaying");
    expect(existsSync(join(cwd, "bench-results"))).toBe(false);
    const written = /JSON: (.+)$/m.exec(run.stdout)?.[1] ?? "";
    expect(written.startsWith(join(tmpdir(), "ctxkit-bench-results"))).toBe(true);
    expect(existsSync(written)).toBe(true);

    const chosen = await runCli(["replay", fixture, "--policy", "none", "--window", "32000", "--out", "mine.json"], { cwd, timeoutMs: 120_000 });
    expect(chosen.code).toBe(0);
    expect(await readdir(cwd)).toContain("mine.json");
  });
});
