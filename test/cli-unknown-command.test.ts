import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "./run-cli.js";

// Command tables are plain objects: a name such as `toString` must not find Object.prototype's member.
describe("a command or benchmark name that is only an object's built-in member", () => {
  it("is an unknown command (exit 2 and the help), not a crash", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-unknown-command-"));
    for (const name of ["toString", "constructor", "__proto__"]) {
      const run = await runCli([name], { cwd });
      expect(run.code, name).toBe(2);
      expect(run.stderr, name).toContain(`unknown command '${name}'`);
    }
    const bench = await runCli(["bench", "hasOwnProperty"], { cwd });
    expect(bench.code).toBe(2);
    expect(bench.stderr).toContain("unknown benchmark 'hasOwnProperty'");
  });
});
