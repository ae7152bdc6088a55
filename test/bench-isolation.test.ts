import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "./run-cli.js";

describe("ctxkit bench isolation", () => {
  it("prints the table over ctxkit's own src/ offline and writes the JSON", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-bench-isolation-"));
    const out = join(cwd, "isolation.json");
    const run = await runCli(["bench", "isolation", "--limit", "1", "--out", out], { cwd, timeoutMs: 100_000 });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/\(a\) main agent greps and reads\s+[\d,]+/);
    expect(run.stdout).toMatch(/\(b\) delegates to explore\s+[\d,]+/);
    expect(run.stdout).toMatch(/\(c\) delegates to a fork\s+[\d,]+/);
    const json = JSON.parse(await readFile(out, "utf8")) as { sections: Array<{ name: string; result: { runs: Array<{ arm: string; answer: string }> } }> };
    const runs = json.sections.find((section) => section.name === "delegation")!.result.runs;
    expect(runs.map((entry) => entry.arm)).toEqual(["main", "explore", "fork"]);
    // The first task's identifier is handled in the session loader of ctxkit itself.
    for (const entry of runs) expect(entry.answer).toContain("torn_last_line is handled here:");
  }, 120_000);

  // model_unpriced is a usage error of the CLI (exit 2, as the help's exit codes say); it was exit 1.
  it("refuses a --pricing model the catalog does not list with exit code 2", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-bench-isolation-"));
    // An empty --source: nothing to copy before the pricing is looked up.
    const run = await runCli(["bench", "isolation", "--source", ".", "--pricing", "gpt-9", "--limit", "1", "--out", join(cwd, "isolation.json")], { cwd });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("No price list for 'gpt-9' in the pricing catalog; choose a model it lists (e.g. gpt-4.1).");
  });
});
