import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, type CliRun } from "./run-cli.js";

// The conventions every subcommand keeps, checked on all of them (benchmarks included, read from
// `ctxkit bench --help` so a new one is covered without editing this file): --help lists the
// options and the exit codes in a user's words, and a mistyped flag is a usage error (exit 2) that
// names the closest flag and shows that subcommand's help.

const jargon = /the seed|seed's|issue \d|experiments? \d|αSN|gap \d/i;

async function inBatches<T, R>(items: readonly T[], size: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let start = 0; start < items.length; start += size) results.push(...(await Promise.all(items.slice(start, start + size).map(work))));
  return results;
}

async function commandLines(cwd: string): Promise<string[][]> {
  const bench = await runCli(["bench", "--help"], { cwd });
  const benches = [...bench.stdout.matchAll(/^ {2}([a-z][\w-]*) {2,}/gm)].map((match) => match[1]!);
  expect(benches.length).toBeGreaterThanOrEqual(10);
  const tau = await runCli(["bench", "tau", "--help"], { cwd });
  const tauCommands = [...tau.stdout.matchAll(/^ {2}([a-z]+) {2,}/gm)].map((match) => match[1]!);
  expect(tauCommands).toEqual(["actions", "replay", "run"]);
  return [
    ["demo"],
    ["run"],
    ["chat"],
    ["sessions", "list"],
    ["sessions", "show", "some-id"],
    ["sessions", "rm", "some-id"],
    ["skills", "list"],
    ["config"],
    ["inspect", "x.jsonl"],
    ["view", "x.jsonl"],
    ["replay", "x.jsonl"],
    ["lint", "tools", "x.json"],
    ...benches.filter((name) => name !== "tau").map((name) => ["bench", name]),
    ...tauCommands.map((name) => ["bench", "tau", name]),
  ];
}

describe("every ctxkit subcommand", { timeout: 300_000 }, () => {
  it("lists its options and exit codes in --help, without the project's internal vocabulary", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-every-command-"));
    const commands = await commandLines(cwd);
    const helpArgs = (command: string[]) => (command[0] === "sessions" || command[0] === "lint" || command[0] === "skills" ? command.slice(0, 2) : command.filter((part) => !part.includes(".") && part !== "some-id"));
    const runs = await inBatches(commands, 4, (command) => runCli([...helpArgs(command), "--help"], { cwd }));
    const top = await runCli(["--help"], { cwd });
    for (const [index, run] of [...runs, top].entries()) {
      const name = (commands[index] ?? ["(top level)"]).join(" ");
      expect(run.code, name).toBe(0);
      expect(run.stdout, name).toMatch(/Usage: ctxkit/);
      expect(run.stdout, name).toMatch(/^ {2}--[a-z]/m);
      expect(run.stdout, name).toMatch(/Exit codes: 0 .*2 a usage error/s);
      expect(run.stdout, name).not.toMatch(jargon);
      // A line never ends in the middle of a phrase such as "/ commands" (issue 29).
      expect(run.stdout, name).not.toMatch(/ \/\n/);
    }
  });

  it("answers a mistyped flag with exit code 2, 'did you mean', and that subcommand's help", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-every-command-"));
    const commands = await commandLines(cwd);
    const runs: CliRun[] = await inBatches(commands, 4, (command) => runCli([...command, "--jsno"], { cwd, timeoutMs: 60_000 }));
    for (const [index, run] of runs.entries()) {
      const command = commands[index]!;
      const name = command.join(" ");
      expect(run.code, name).toBe(2);
      // A command suggests only the flags it takes: chat has no --json, so it names the typo alone.
      const takesJson = (await runCli([...command.filter((part) => !part.includes(".") && part !== "some-id"), "--help"], { cwd })).stdout.includes("--json");
      expect(run.stderr, name).toContain(takesJson ? "unknown option --jsno (did you mean --json?)" : "unknown option --jsno.");
      // The help shown is the subcommand's own (its usage line names it), not Node's text.
      const usage = command.filter((part) => !part.includes(".") && part !== "some-id").join(" ");
      expect(run.stderr, name).toContain(`ctxkit ${usage}`);
      expect(run.stderr, name).not.toMatch(/ERR_PARSE_ARGS|at parseArgs/);
      expect(run.stdout, name).toBe("");
    }
  });

  it("answers a missing argument with exit code 2 and says what to give", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-every-command-"));
    const cases: Array<[string[], string]> = [
      [["run"], "give the task as an argument"],
      [["sessions", "show"], "sessions show needs a session id"],
      [["sessions", "rm"], "give the id of the session to remove"],
      [["skills", "show"], "give a skill's name"],
      [["inspect"], "give one or more transcript files or folders"],
      [["view"], "give a session id or transcript files"],
      [["replay"], "give at least one transcript file or directory"],
      [["lint"], "say what to lint"],
      [["sessions"], "ctxkit sessions: say which: list, show <id>, rm <id…> or unlock <id…>."],
      [["skills"], "ctxkit skills: say which: list, show <name> or lint [name]."],
      [["runs"], "ctxkit runs: say which: list, show <id>, cancel <id> or resume <id>."],
      [["bench"], "ctxkit bench: say which benchmark to run."],
    ];
    const runs = await inBatches(cases, 4, ([args]) => runCli(args, { cwd, timeoutMs: 60_000 }));
    for (const [index, run] of runs.entries()) {
      const [args, text] = cases[index]!;
      expect(run.code, args.join(" ")).toBe(2);
      expect(run.stderr, args.join(" ")).toContain(text);
      // A usage error's help goes with the error, to stderr; stdout stays for what a command prints when it works.
      expect(run.stdout, args.join(" ")).toBe("");
    }
  });

  it("names a --workspace that does not exist instead of listing no sessions or skills in it", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-every-command-"));
    const missing = join(cwd, "no-such-folder");
    const runs = await Promise.all([runCli(["sessions", "list", "--workspace", missing], { cwd }), runCli(["skills", "list", "--workspace", missing], { cwd })]);
    for (const run of runs) {
      expect(run.code).toBe(1);
      expect(run.stdout).toBe("");
      expect(run.stderr).toContain(`The workspace ${missing} does not exist or is not a folder.`);
    }
    // Sessions kept elsewhere do not need the workspace.
    const elsewhere = join(cwd, "data");
    const listed = await runCli(["sessions", "list", "--workspace", missing, "--data-dir", elsewhere], { cwd });
    expect(listed.stderr).toBe("");
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain("No sessions in");
  });
});
