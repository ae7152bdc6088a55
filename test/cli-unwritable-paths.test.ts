import { existsSync } from "node:fs";
import { chmod, mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "./run-cli.js";

// No model is reached: each path is refused before the first call (port 9 is discard; nothing answers).
const model = ["--base-url", "http://127.0.0.1:9/v1", "--model", "m"];

async function workspaceWithAFile(): Promise<{ cwd: string; file: string }> {
  const cwd = await mkdtemp(join(tmpdir(), "ctxkit-unwritable-"));
  const file = join(cwd, "a-file");
  await writeFile(file, "not a folder\n");
  return { cwd, file };
}

describe("a path from a flag that cannot be written", () => {
  it("--data-dir naming a file: the command, the path and the flags to check, not Node's bare ENOTDIR/EEXIST", async () => {
    const { cwd, file } = await workspaceWithAFile();
    const run = await runCli(["run", ...model, "--data-dir", file, "hi"], { cwd });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^ctxkit run: --data-dir .*a-file: cannot keep sessions there: a file is in the way where a folder should be \(EEXIST\)\. Give a folder you may write: --data-dir <dir>/);
    const list = await runCli(["sessions", "list", "--data-dir", file], { cwd });
    expect(list.code).toBe(1);
    expect(list.stderr).toMatch(/^ctxkit sessions: cannot scandir .*a-file\/sessions: a part of the path is a file, not a folder \(ENOTDIR\)/);
  });

  it("--data-dir under a file, /dev/null, or CTXKIT_DATA_DIR naming a file: the setting that named it", async () => {
    const { cwd, file } = await workspaceWithAFile();
    const under = await runCli(["run", ...model, "--data-dir", join(file, "data"), "hi"], { cwd });
    expect(under.code).toBe(1);
    expect(under.stderr).toMatch(/^ctxkit run: --data-dir .*a-file\/data: cannot keep sessions there: a part of the path is a file, not a folder \(ENOTDIR\)/);
    const device = await runCli(["run", ...model, "--data-dir", "/dev/null", "hi"], { cwd });
    expect(device.code).toBe(1);
    expect(device.stderr).toContain("ctxkit run: --data-dir /dev/null: cannot keep sessions there: a file is in the way where a folder should be (EEXIST).");
    const variable = await runCli(["run", ...model, "hi"], { cwd, env: { CTXKIT_DATA_DIR: file } });
    expect(variable.code).toBe(1);
    expect(variable.stderr).toMatch(/^ctxkit run: CTXKIT_DATA_DIR=.*a-file: cannot keep sessions there/);
  });

  // procfs answers ENOENT to mkdir, and Node's recursive mkdir then retries forever: the run hung.
  it.skipIf(process.platform !== "linux")("--data-dir under /proc fails at once, naming the flag, instead of hanging", async () => {
    const { cwd } = await workspaceWithAFile();
    for (const directory of ["/proc/ctxkit-nope", "/proc/ctxkit-nope/deeper"]) {
      const run = await runCli(["run", ...model, "--data-dir", directory, "hi"], { cwd, timeoutMs: 10_000 });
      expect(run.code, directory).toBe(1);
      expect(run.stderr, directory).toMatch(new RegExp(`^ctxkit run: --data-dir ${directory}: cannot keep sessions there: no folder can be made there \\(ENOENT`));
      expect(run.stderr, directory).toContain("Give a folder you may write: --data-dir <dir>, CTXKIT_DATA_DIR, or \"dataDir\" in ctxkit.config.json.");
    }
  }, 30_000);

  // root may write anywhere, so a folder's mode refuses nothing to it.
  it.skipIf(process.getuid?.() === 0)("a read-only --data-dir is refused before the run, not at the session's first write", async () => {
    const { cwd } = await workspaceWithAFile();
    const data = join(cwd, "read-only");
    await mkdir(data);
    await writeFile(join(data, ".gitignore"), "*\n");
    await chmod(data, 0o500);
    const run = await runCli(["run", ...model, "--data-dir", data, "hi"], { cwd });
    await chmod(data, 0o700);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^ctxkit run: --data-dir .*read-only: cannot keep sessions there: permission denied \(EACCES\)/);
  });

  // submit's agent runs on a worker's host, which keeps the data directory: submit checked (and made)
  // it here, so a read-only checkout was refused and a submit left a .ctxkit folder behind.
  it("ctxkit submit neither makes nor checks the data directory: the worker's host keeps it", async () => {
    const { cwd, file } = await workspaceWithAFile();
    // Nothing listens on port 9: the submit stops at the database, after what it checks locally.
    const env = { CTXKIT_DATABASE_URL: "postgres://ctxkit@127.0.0.1:9/none" };
    for (const dataDir of [[], ["--data-dir", file]]) {
      const submit = await runCli(["submit", ...model, ...dataDir, "hi"], { cwd, env });
      expect(submit.code, dataDir.join(" ")).toBe(1);
      expect(submit.stderr, dataDir.join(" ")).toMatch(/^ctxkit submit: Could not .*ECONNREFUSED/);
    }
    expect(existsSync(join(cwd, ".ctxkit"))).toBe(false);
  });

  it("--log-requests under a file is refused before the run, not reported as a server that cannot be reached", async () => {
    const { cwd, file } = await workspaceWithAFile();
    for (const log of [join(file, "requests.jsonl"), cwd]) {
      const run = await runCli(["run", ...model, "--log-requests", log, "hi"], { cwd });
      expect(run.code, log).toBe(1);
      expect(run.stderr, log).toContain(`ctxkit run: --log-requests ${log}: cannot write the request log there`);
      expect(run.stderr, log).not.toContain("Could not reach");
    }
  });
});
