import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { commandLines } from "./command-lines.js";
import { runCli } from "./run-cli.js";

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
    // …and a flag of the usage line is explained in an option's line (demo's --no-color was in the usage alone).
    const lines = help.stdout.split("\n");
    const explained = normalise(flagsIn(lines.filter((line) => /^ {1,8}(-\w, )?--[a-z]/.test(line)).map((line) => line.trim().split(/\s{2,}/)[0]!)), parsed);
    const submitsRunOptions = /agent options of 'ctxkit run'/.test(help.stdout);
    if (!submitsRunOptions) expect([...normalise(flagsIn(usage), parsed)].filter((flag) => flag !== "help" && !explained.has(flag)), "in the usage line but not explained").toEqual([]);
  });
});
