import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { BatteryResult } from "../src/bench/hardening/index.js";
import { expectNamedHardeningCases } from "./hardening-named-cases.js";
import { runCli } from "./run-cli.js";


// Every battery at a tiny scale through the real binary: the shape of the JSON, and no failure of
// any class. The full counts run with `ctxkit bench hardening --scale 1` (minutes, not for CI).
describe("ctxkit bench hardening", () => {
  it("runs every battery at a tiny scale, prints the table and writes JSON with zero failures", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-bench-hardening-"));
    const out = join(cwd, "hardening.json");
    const run = await runCli(["bench", "hardening", "--trials", "3", "--seed", "5", "--out", out], { cwd, timeoutMs: 560_000 });
    expect(run.stderr).toContain("seed 5");
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/battery\s+trials\s+freezes\s+crashes\s+escapes\s+silent merges\s+lost records/);
    const json = JSON.parse(await readFile(out, "utf8")) as { benchmark: string; seed: number; counts: Record<string, number>; batteries: BatteryResult[]; totals: Record<string, number> };
    expect(json).toMatchObject({ benchmark: "hardening", seed: 5, counts: { "kill-resume": 3, "session-files": 3, streams: 3, race: 3, config: 3 } });
    expect(json.batteries.map((battery) => battery.battery)).toEqual(["kill-resume", "session-files", "streams", "big-event-sse", "importers", "workspace-escapes", "listing-race", "config-and-confirmations", "resource-limits"]);
    for (const battery of json.batteries) {
      expect(battery.trials, battery.battery).toBeGreaterThan(0);
      expect({ battery: battery.battery, failures: battery.failures }).toEqual({ battery: battery.battery, failures: [] });
      for (const entry of battery.cases) expect(entry, entry.name).toMatchObject({ passed: true });
    }
    expect(json.totals).toMatchObject({ freezes: 0, crashes: 0, escapes: 0, silentMerges: 0, lostRecords: 0 });
    // The original cases of the hardening issues are run by name.
    expectNamedHardeningCases(json.batteries.flatMap((battery) => battery.cases.map((entry) => entry.name)).join("\n"));
  }, 600_000);

  it("refuses an unknown battery with a usage error", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-bench-hardening-"));
    const run = await runCli(["bench", "hardening", "--only", "nonsense"], { cwd });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--only takes batteries among");
  });
});
