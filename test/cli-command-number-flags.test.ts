import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { isNumberFlag, type NumberRule } from "../src/cli/number-flags.js";
import { commandLines } from "./command-lines.js";
import { runCli } from "./run-cli.js";

/** Values each rule refuses: words (`16k` included: no flag takes a suffix), then each side of its range. */
function refusedValues(rule: NumberRule): string[] {
  const values = ["abc", "", "0x10", "16k", "-1"];
  if (rule.integer) values.push("1.5");
  if (rule.min !== undefined) values.push(String(rule.min - 1));
  if (rule.above !== undefined) values.push(String(rule.above));
  if (rule.max !== undefined) values.push(String(rule.max + 1));
  if (rule.list) values.push("1,,2", "1,x", "16000,16k", "16000;32000");
  return values;
}

/** A positional each command needs before it looks at its flags' values (none is ever read: the flag is refused first). */
const positionals: Record<string, string[]> = { replay: ["missing.json"], inspect: ["missing.json"], view: ["missing.json"], submit: ["a task"] };

// The benchmarks' flags are tried by cli-bench-number-flags.test.ts.
const numberFlags = commandLines
  .filter(({ words }) => words[0] !== "bench")
  .flatMap(({ words, options }) => Object.entries(options).flatMap(([flag, option]) => (isNumberFlag(option) ? [{ words, flag, rule: option.number }] : [])));

describe("every numeric flag of the commands besides bench", () => {
  it("is declared with its rule (worker's and replay's were checked by hand, after the database was asked for)", () => {
    expect(numberFlags.map(({ words, flag }) => `${words.join(" ")} --${flag}`)).toEqual(
      expect.arrayContaining(["worker --concurrency", "worker --stale-after", "replay --window", "replay --limit", "inspect --limit", "view --port", "submit --timeout"]),
    );
  });

  it.each(numberFlags)("$words --$flag refuses a word, a suffix, a fraction or a value out of range (exit 2, naming the flag)", async ({ words, flag, rule }) => {
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-number-flags-"));
    for (const value of refusedValues(rule)) {
      // No database is set: the value is refused before one is asked for.
      const run = await runCli([...words, ...(positionals[words[0]!] ?? []), `--${flag}=${value}`], { cwd, env: { CTXKIT_DATABASE_URL: "" } });
      expect(run.code, `--${flag}=${value}`).toBe(2);
      expect(run.stderr, `--${flag}=${value}`).toMatch(new RegExp(`^ctxkit ${words[0]}: --${flag} must be .*, got '${value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}'\\.`));
    }
  });

  // Each was answered otherwise: worker asked for its database first (exit 1), replay took 0x10 as 16 tokens.
  it.each([
    [["worker", "--concurrency", "0"], "--concurrency must be a positive whole number, got '0'."],
    [["worker", "--stale-after", "16k"], "--stale-after must be a whole number from 1 to 2147483, got '16k'."],
    // Seconds a timer cannot hold (24.8 days): the watchdog's interval fired every millisecond.
    [["worker", "--stale-after", "7000000"], "--stale-after must be a whole number from 1 to 2147483, got '7000000'."],
    [["replay", "missing.json", "--window", "0x10"], "--window must be a positive whole number, or several separated by commas, got '0x10'."],
    [["replay", "missing.json", "--window", "16000,16k"], "--window must be a positive whole number, or several separated by commas, got '16000,16k'."],
    [["replay", "missing.json", "--limit", "1.5"], "--limit must be a positive whole number, got '1.5'."],
  ])("ctxkit %j is a usage error", async (args, reason) => {
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-number-flags-"));
    const run = await runCli(args, { cwd, env: { CTXKIT_DATABASE_URL: "" } });
    expect(run.code).toBe(2);
    expect(run.stderr.split("\n")[0]).toBe(`ctxkit ${args[0]}: ${reason}`);
  });

  it("worker takes a count and seconds as before, then asks for its database", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-number-flags-"));
    const run = await runCli(["worker", "--concurrency", "8", "--stale-after", "15"], { cwd, env: { CTXKIT_DATABASE_URL: "" } });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("ctxkit worker: no PostgreSQL database is set: pass --database-url");
  });

  it("replay takes several windows, the same one given twice replayed once", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-number-flags-"));
    const fixture = resolve("src/inspect/importers/fixtures/mini-swe-agent.traj.json");
    const run = await runCli(["replay", fixture, "--policy", "none", "--window", "16000, 32000,16000", "--limit", "1", "--json", "--out", "report.json"], { cwd, timeoutMs: 120_000 });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as { windows: Array<{ contextWindow?: number }> };
    expect(report.windows).toHaveLength(2);
  });
});
