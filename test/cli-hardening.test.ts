import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, symlink, writeFile } from "node:fs/promises";
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

async function workspace(): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), "ctxkit-hardening-"));
  await mkdir(join(directory, "project"));
  return join(directory, "project");
}

// The trial that found it: `"dataDir": "/srv/elsewhere"` or `"../outside"` in a workspace's config
// made ctxkit write the whole conversation outside the workspace, exit 0.
describe("a workspace's config cannot move session storage", () => {
  it("refuses a dataDir outside the workspace, absolute, relative or through a link", async () => {
    const cwd = await workspace();
    await symlink(tmpdir(), join(cwd, "link-out"));
    for (const dataDir of ["/srv/elsewhere", "../outside", "link-out/sessions"]) {
      await writeFile(join(cwd, "ctxkit.config.json"), JSON.stringify({ dataDir }));
      const run = await runCli(["config"], { cwd });
      expect(run.code, dataDir).toBe(1);
      expect(run.stderr).toContain("'dataDir'");
      expect(run.stderr).toContain("is outside the workspace");
    }
  });

  it("accepts a dataDir inside the workspace, and a flag may still choose any place", async () => {
    const cwd = await workspace();
    await writeFile(join(cwd, "ctxkit.config.json"), JSON.stringify({ dataDir: "state/ctxkit" }));
    const inside = await runCli(["config"], { cwd });
    expect(inside.code).toBe(0);
    expect(JSON.parse(inside.stdout)).toMatchObject({ dataDir: join(cwd, "state", "ctxkit") });
    await writeFile(join(cwd, "ctxkit.config.json"), JSON.stringify({ model: "m" }));
    const flag = await runCli(["config", "--data-dir", join(cwd, "..", "chosen")], { cwd });
    expect(flag.code).toBe(0);
    expect(JSON.parse(flag.stdout)).toMatchObject({ dataDir: join(cwd, "..", "chosen") });
  });
});

// The trial that found it: after one approved write_file, a config the model wrote enabled bash and
// moved storage on the next run. Under --yes with no one to answer, that write is now declined.
describe("an agent's write to ctxkit.config.json", () => {
  it("is not approved by --yes; with nobody to answer it is declined and the file stays unwritten", async () => {
    server = await startOpenAIModelServer([
      { toolCalls: [{ name: "write_file", arguments: { path: "ctxkit.config.json", content: '{"tools":["all"],"dataDir":"/tmp/x"}' } }] },
      "Done.",
    ]);
    const cwd = await workspace();
    const run = await runCli(["run", "--base-url", server.baseURL, "--model", "m", "--yes", "Configure yourself."], { cwd });
    // Declined for want of a terminal: the run says so and exits 1 (prompts and notes are on stderr).
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("this call writes ctxkit's own settings or data: \"ctxkit.config.json\" is the workspace's ctxkit.config.json");
    expect(existsSync(join(cwd, "ctxkit.config.json"))).toBe(false);
    expect(await readdir(join(cwd, ".ctxkit", "sessions"))).toHaveLength(1);
  });
});

describe("provider time limits on the command line", () => {
  it("takes --request-timeout and --idle-timeout in seconds and refuses nonsense", async () => {
    const cwd = await workspace();
    const run = await runCli(["config", "--request-timeout", "5", "--idle-timeout", "0.5"], { cwd });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ timeouts: { firstByteMs: 5000, idleMs: 500 } });
    const bad = await runCli(["config", "--idle-timeout", "soon"], { cwd });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--idle-timeout must be a number of seconds");
  });
});

/** A workspace whose session has one finished run (the server has a second answer ready), and its lines. */
async function sessionAfterOneRun(): Promise<{ cwd: string; sessionId: string; file: string; lines: string[]; baseURL: string }> {
  server = await startOpenAIModelServer(["First answer.", "Second answer."]);
  const cwd = await workspace();
  const first = await runCli(["run", "--base-url", server.baseURL, "--model", "m", "--json", "Hello"], { cwd });
  const sessionId = String((JSON.parse(first.stdout.trim().split("\n").at(-1)!) as { sessionId: string }).sessionId);
  const file = join(cwd, ".ctxkit", "sessions", `${sessionId}.jsonl`);
  return { cwd, sessionId, file, lines: (await readFile(file, "utf8")).split("\n").slice(0, -1), baseURL: server.baseURL };
}

// The trial that found it: a duplicated message line loaded silently and resumed from a context
// that no longer matched what was sent.
describe("a session with a duplicated line", () => {
  it("is shown with a warning, refused on resume, and resumed with --repair", async () => {
    const { cwd, sessionId, file, lines, baseURL } = await sessionAfterOneRun();
    const messageLine = lines.findIndex((line) => line.startsWith('{"type":"message"'));
    lines.splice(messageLine + 1, 0, lines[messageLine]!);
    await writeFile(file, `${lines.join("\n")}\n`);

    const shown = await runCli(["sessions", "show", sessionId], { cwd });
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain(`warning: Line ${messageLine + 2} repeats message id`);

    const refused = await runCli(["run", "--base-url", baseURL, "--model", "m", "--session", sessionId, "Again"], { cwd });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("--repair");
    const repaired = await runCli(["run", "--base-url", baseURL, "--model", "m", "--session", sessionId, "--repair", "Again"], { cwd });
    expect(repaired.code).toBe(0);
    expect(repaired.stdout).toContain("Second answer.");
    expect(repaired.stderr).toContain(`Repaired: line ${messageLine + 2} left out of the session file`);
    // The damaged original is kept beside the session; the session itself loads clean again.
    expect(await readFile(`${file}.before-repair`, "utf8")).toBe(`${lines.join("\n")}\n`);
    const clean = await runCli(["sessions", "show", sessionId], { cwd });
    expect(clean.stdout).not.toContain("warning:");
  });
});

// The leftover: records out of order (a request line before the message it sent) were refused on
// resume with no way to repair them.
describe("a session with lines out of order", () => {
  it("is refused on resume naming --repair, and resumed with --repair in order, the original kept", async () => {
    const { cwd, sessionId, file, lines, baseURL } = await sessionAfterOneRun();
    const request = lines.findIndex((line) => line.startsWith('{"type":"request"'));
    const [moved] = lines.splice(request, 1);
    lines.splice(request - 1, 0, moved!); // the request now comes before the user message it sent
    await writeFile(file, `${lines.join("\n")}\n`);

    const refused = await runCli(["run", "--base-url", baseURL, "--model", "m", "--session", sessionId, "Again"], { cwd });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("out of order");
    expect(refused.stderr).toContain("--repair");
    const repaired = await runCli(["run", "--base-url", baseURL, "--model", "m", "--session", sessionId, "--repair", "Again"], { cwd });
    expect(repaired.code).toBe(0);
    expect(repaired.stdout).toContain("Second answer.");
    expect(repaired.stderr).toContain("put back in order");
    expect(await readFile(`${file}.before-repair`, "utf8")).toBe(`${lines.join("\n")}\n`);
    const clean = await runCli(["sessions", "show", sessionId], { cwd });
    expect(clean.code).toBe(0);
    expect(clean.stdout).not.toContain("warning:");
  });
});

// Found in review: a usage line before its request loaded as an orphan, and --repair deleted it
// (its tokens lost) instead of moving it after its request.
describe("a session whose usage line comes before its request", () => {
  it("is resumed with --repair keeping the usage: moved, not removed", async () => {
    const { cwd, sessionId, file, lines, baseURL } = await sessionAfterOneRun();
    const request = lines.findIndex((line) => line.startsWith('{"type":"request"'));
    const usage = lines.findIndex((line, index) => index > request && line.startsWith('{"type":"usage"'));
    const [moved] = lines.splice(usage, 1);
    lines.splice(request, 0, moved!); // the usage now comes just before the request it belongs to
    await writeFile(file, `${lines.join("\n")}\n`);

    const repaired = await runCli(["run", "--base-url", baseURL, "--model", "m", "--session", sessionId, "--repair", "Again"], { cwd });
    expect(repaired.code).toBe(0);
    expect(repaired.stdout).toContain("Second answer.");
    expect(repaired.stderr).toContain("put back in order");
    expect(existsSync(`${file}.removed`)).toBe(false);
    expect(await readFile(`${file}.before-repair`, "utf8")).toBe(`${lines.join("\n")}\n`);
    const clean = await runCli(["sessions", "show", sessionId], { cwd });
    expect(clean.stdout).not.toContain("warning:");
  });
});
