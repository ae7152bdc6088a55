import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { benchCommandLines } from "../src/cli/commands/bench-command.js";
import { chatOptions } from "../src/cli/commands/chat-command.js";
import { configOptions } from "../src/cli/commands/config-command.js";
import { demoOptions } from "../src/cli/commands/demo-command.js";
import { inspectOptions } from "../src/cli/commands/inspect-command.js";
import { lintToolsOptions } from "../src/cli/commands/lint-tools-command.js";
import { replayOptions } from "../src/cli/commands/replay-command.js";
import { runOptions } from "../src/cli/commands/run-command.js";
import { runsOptions } from "../src/cli/commands/runs-command.js";
import { sessionsOptions } from "../src/cli/commands/sessions-command.js";
import { skillsOptions } from "../src/cli/commands/skills-command.js";
import { submitOptions } from "../src/cli/commands/submit-command.js";
import { viewOptions } from "../src/cli/commands/view-command.js";
import { workerOptions } from "../src/cli/commands/worker-command.js";
import type { CommandOptions } from "../src/cli/cli-options.js";
import { runCli } from "./run-cli.js";

/** Every command line with the options object it hands parseCommandLine (the flags it parses, besides --help). */
const commandLines: Array<{ words: string[]; options: CommandOptions }> = [
  { words: ["demo"], options: demoOptions },
  { words: ["run"], options: runOptions },
  { words: ["chat"], options: chatOptions },
  { words: ["sessions"], options: sessionsOptions },
  { words: ["worker"], options: workerOptions },
  { words: ["submit"], options: submitOptions },
  { words: ["runs"], options: runsOptions },
  { words: ["skills"], options: skillsOptions },
  { words: ["config"], options: configOptions },
  { words: ["inspect"], options: inspectOptions },
  { words: ["replay"], options: replayOptions },
  { words: ["view"], options: viewOptions },
  { words: ["lint", "tools"], options: lintToolsOptions },
  ...benchCommandLines().map(({ words, options }) => ({ words: ["bench", ...words], options })),
];

/**
 * The flags a help text lists: those of its usage lines, and those that start an option's line
 * (`  --port <n>   port…`, `  --open, --no-open   …`), not flags its prose mentions nor a wrapped
 * description line that starts with one (it is indented to the description column).
 */
function usageLines(help: string): string[] {
  const lines = help.split("\n");
  const usageEnd = lines.findIndex((line, index) => index > 0 && line.trim() === "");
  return lines.slice(0, usageEnd === -1 ? 1 : usageEnd);
}

function flagsIn(texts: readonly string[]): string[] {
  return texts.flatMap((text) => [...text.matchAll(/--(\[no-\])?([a-z][a-z0-9-]*)/g)].map((match) => match[2]!));
}

function listedFlags(help: string): Set<string> {
  const lines = help.split("\n");
  const usage = usageLines(help);
  const optionColumns = lines.filter((line) => /^ {1,8}(-\w, )?--[a-z]/.test(line)).map((line) => line.trim().split(/\s{2,}/)[0]!);
  return new Set(flagsIn([...usage, ...optionColumns]));
}

/** `--no-open` is --open's negation (parseArgs' allowNegative), not a flag of its own. */
function normalise(flags: Iterable<string>, parsed: ReadonlySet<string>): Set<string> {
  return new Set([...flags].map((flag) => (flag.startsWith("no-") && !parsed.has(flag) && parsed.has(flag.slice(3)) ? flag.slice(3) : flag)));
}

describe("each command's --help lists exactly the flags it parses", () => {
  it.each(commandLines)("ctxkit $words", async ({ words, options }) => {
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-help-flags-"));
    const help = await runCli([...words, "--help"], { cwd });
    expect(help.code).toBe(0);
    const parsed = new Set([...Object.keys(options), "help"]);
    let listed = normalise(listedFlags(help.stdout), parsed);
    // submit takes run's agent options, and says so instead of listing them again.
    if (/agent options of 'ctxkit run'/.test(help.stdout)) {
      const run = await runCli(["run", "--help"], { cwd });
      listed = new Set([...listed, ...normalise(listedFlags(run.stdout), parsed)]);
    }
    listed.add("help");
    expect([...listed].filter((flag) => !parsed.has(flag)), "listed in --help but not parsed").toEqual([]);
    expect([...parsed].filter((flag) => !listed.has(flag)), "parsed but not listed in --help").toEqual([]);
    // A usage line that spells flags out spells out all of them (view's left out --tools, --workspace…),
    // unless it says that more follow ([options], run's agent options).
    const usage = usageLines(help.stdout);
    if (!usage.some((line) => /\[(model )?options\]|agent options/.test(line))) {
      const inUsage = normalise(flagsIn(usage), parsed);
      expect([...parsed].filter((flag) => flag !== "help" && !inUsage.has(flag)), "parsed but not in the usage line").toEqual([]);
    }
  });
});
