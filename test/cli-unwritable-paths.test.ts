import { mkdtemp, writeFile } from "node:fs/promises";
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
    expect(run.stderr).toMatch(/^ctxkit run: cannot mkdir .*a-file: .*\(EEXIST\)\. Check the paths .*--data-dir/);
    const list = await runCli(["sessions", "list", "--data-dir", file], { cwd });
    expect(list.code).toBe(1);
    expect(list.stderr).toMatch(/^ctxkit sessions: cannot scandir .*a-file\/sessions: a part of the path is a file, not a folder \(ENOTDIR\)/);
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
