import { readFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "./run-cli.js";

/** The ctxkit commands CI runs (`npx ctxkit …` lines of .ci/run), without their redirections. */
function ciCommands(): string[][] {
  const script = readFileSync(new URL("../.ci/run", import.meta.url), "utf8");
  return script
    .split("\n")
    .flatMap((line) => /^npx ctxkit (.+)$/.exec(line.trim())?.[1]?.split(/\s+[>|&]/)[0] ?? [])
    .map((command) => command.trim().split(/\s+/));
}

// CI ran 'ctxkit bench serving --no-color' after bench commands stopped taking flags they ignore:
// the last step of CI failed on an unknown option. Each line must parse (--help parses first).
describe("the ctxkit commands .ci/run runs", () => {
  it("are found (demo and bench serving at least)", () => {
    expect(ciCommands().map((words) => words[0])).toEqual(expect.arrayContaining(["demo", "bench"]));
  });

  it.each(ciCommands().map((words) => ({ words })))("ctxkit $words takes every flag it is given", async ({ words }) => {
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-ci-script-"));
    const parsed = await runCli([...words, "--help"], { cwd });
    expect(parsed.stderr).toBe("");
    expect(parsed.code).toBe(0);
  });
});
