import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { benchCommandLines } from "../src/cli/commands/bench-command.js";
import { runCli } from "./run-cli.js";

// Each of these dropped the extra words and went on: `chat "fix the test"` opened an empty chat,
// `sessions show a b` showed a alone, `bench kv-cache 500` ran with its default sizes.
describe("a word a command does not take", () => {
  it.each([
    [["chat", "fix the failing test"], `unexpected argument 'fix the failing test': ctxkit chat takes its messages once it has started (for one task without a conversation: ctxkit run "<task>").`],
    [["demo", "now"], "unexpected argument 'now': ctxkit demo takes only options (--dir <dir> chooses its folder)."],
    [["config", "model"], "unexpected argument 'model': ctxkit config takes only options (it prints every setting; --json adds where each came from)."],
    [["worker", "4"], "unexpected argument '4': ctxkit worker takes only options (tasks are given to 'ctxkit submit')."],
    [["sessions", "list", "a"], "unexpected argument 'a': sessions list takes no id (sessions show <id> shows one)."],
    [["sessions", "show", "a", "b", "c"], "unexpected arguments 'b' 'c': sessions show takes one session id."],
    [["runs", "list", "r1"], "unexpected argument 'r1': runs list takes no id (runs show <id> shows one)."],
    [["runs", "cancel", "r1", "r2"], "unexpected argument 'r2': runs cancel takes one run id."],
    [["skills", "list", "deploy"], "unexpected argument 'deploy': skills list takes no name (skills show <name> shows one)."],
    [["skills", "show", "a", "b"], "unexpected argument 'b': skills show takes one skill name."],
    [["lint", "tools", "a.json", "b.json"], "unexpected argument 'b.json': lint tools takes one file or module (a list of tools in it; --mcp-config <file> is repeatable)."],
  ])("ctxkit %j is a usage error (exit 2, then the command's help), before anything is read or started", async (args, reason) => {
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-extra-arguments-"));
    const run = await runCli(args, { cwd, env: { CTXKIT_DATABASE_URL: "" } });
    expect(run.code).toBe(2);
    const command = args[0] === "lint" ? "lint" : args[0];
    expect(run.stderr.split("\n")[0]).toBe(`ctxkit ${command}: ${reason}`);
    expect(run.stderr).toContain("Usage: ctxkit");
    expect(run.stdout).toBe("");
  });

  it.each(benchCommandLines().map(({ words }) => ({ words })))("ctxkit bench $words refuses a word (no benchmark takes one)", async ({ words }) => {
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-extra-arguments-"));
    const run = await runCli(["bench", ...words, "500"], { cwd });
    expect(run.code).toBe(2);
    expect(run.stderr.split("\n")[0]).toBe(`ctxkit bench: unexpected argument '500': ctxkit bench ${words.join(" ")} takes only options (see ctxkit bench ${words.join(" ")} --help).`);
  });

  it("still lets --help through", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-extra-arguments-"));
    const run = await runCli(["bench", "kv-cache", "500", "--help"], { cwd });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Usage: ctxkit bench kv-cache");
  });
});
