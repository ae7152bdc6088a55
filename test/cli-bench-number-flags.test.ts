import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { benchCommandLines } from "../src/cli/commands/bench-command.js";
import { liveModelOptions } from "../src/cli/live-model-options.js";
import { isNumberFlag, type NumberRule } from "../src/cli/number-flags.js";
import { runCli } from "./run-cli.js";

/** Values each rule refuses: a word always, then a fraction where a whole number is due and each side of the range. */
function refusedValues(rule: NumberRule): string[] {
  if (rule.duration) return ["soon", "3h"];
  const values = ["abc", "", "0x10"];
  if (rule.integer) values.push("1.5");
  if (rule.min !== undefined) values.push(String(rule.min - 1));
  if (rule.above !== undefined) values.push(String(rule.above));
  if (rule.max !== undefined) values.push(String(rule.max + 1));
  if (rule.list) values.push("1,,2", "1,x");
  return values;
}

const numberFlags = benchCommandLines().flatMap(({ words, options }) =>
  Object.entries(options).flatMap(([flag, option]) => (isNumberFlag(option) ? [{ words, flag, rule: option.number }] : [])),
);

describe("every numeric flag of every benchmark", () => {
  it("is declared with its rule (the list below is not empty, so each bench's flags are seen)", () => {
    expect(numberFlags.map(({ words, flag }) => `${words.join(" ")} --${flag}`)).toEqual(expect.arrayContaining(["kv-cache --calls", "tau run --temperature", "durable --kill-every", "serving --sizes"]));
  });

  // `bench kv-cache --calls abc` was silently ignored: --calls was only read in the engine's branch.
  it.each(numberFlags)("bench $words --$flag refuses a word, a fraction or a value out of range (exit 2, naming the flag)", async ({ words, flag, rule }) => {
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-bench-flags-"));
    for (const value of refusedValues(rule)) {
      const run = await runCli(["bench", ...words, `--${flag}=${value}`], { cwd });
      expect(run.code, `--${flag}=${value}`).toBe(2);
      expect(run.stderr, `--${flag}=${value}`).toMatch(new RegExp(`^ctxkit bench: --${flag} must be .*, got '${value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}'\\.`));
    }
  });

  it("is shown in the benchmark's --help with a value, and each flag --help shows with a number is declared one", () => {
    for (const { words, help, options } of benchCommandLines()) {
      const numeric = Object.entries(options).flatMap(([flag, option]) => (isNumberFlag(option) ? [flag] : []));
      for (const flag of numeric) expect(help, `bench ${words.join(" ")}`).toMatch(new RegExp(`--${flag}[ =]<?[\\w.]`));
      // `--limit <n>`, `--trials <k>`, `--temperature <t>`: a count or a number in the help is a checked flag.
      const shownAsNumbers = [...help.matchAll(/--([a-z][\w-]*) <(n|k|t|dialogues|tokens)>/g)].map((match) => match[1]!);
      // Run's model flags (--context-window <tokens>) are checked with the settings, as in a run (below).
      for (const flag of shownAsNumbers) if (Object.hasOwn(options, flag) && !Object.hasOwn(liveModelOptions, flag)) expect(numeric, `bench ${words.join(" ")} --${flag}`).toContain(flag);
    }
  });
});
