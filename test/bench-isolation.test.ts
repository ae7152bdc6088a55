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
});
