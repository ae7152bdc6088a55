import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "./run-cli.js";

describe("what a person mistypes gets the word they meant", () => {
  it("names the action, target or option nearest to a typo, and ctxkit's flag for another CLI's word", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-suggestions-"));
    const cases: Array<[string[], string]> = [
      [["run", "--model", "m", "--resume", "20261201-080000-aaaaaa", "go on"], "unknown option --resume (did you mean --session?)"],
      [["sessions", "lst"], "unknown action 'lst' (did you mean 'list'?)"],
      // No database is asked for: the typo is found first.
      [["runs", "lst"], "unknown action 'lst' (did you mean 'list'?)"],
      [["skills", "lsit"], "unknown action 'lsit' (did you mean 'list'?)"],
      [["lint", "tool", "tools.json"], "unknown target 'tool' (did you mean 'tools'?)"],
      [["--verison"], "unknown command '--verison' (did you mean '--version'?)"],
    ];
    for (const [args, message] of cases) {
      const run = await runCli(args, { cwd });
      expect(run.code, args.join(" ")).toBe(2);
      expect(run.stderr, args.join(" ")).toContain(message);
    }
  });

  it("says the reason again below a help too long for one screen (run's), so a terminal still shows it", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-suggestions-"));
    const run = await runCli(["run", "--modle", "m", "hi"], { cwd });
    expect(run.code).toBe(2);
    const lines = run.stderr.trimEnd().split("\n");
    expect(lines[0]).toBe("ctxkit run: unknown option --modle (did you mean --model?).");
    expect(lines.at(-1)).toBe(lines[0]);
    // A short help is not followed by the reason twice.
    const sessions = await runCli(["sessions", "--jsn"], { cwd });
    expect(sessions.stderr.match(/unknown option --jsn/g)).toHaveLength(1);
  });
});
