import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { batteryNames, type BatteryResult } from "../src/bench/hardening/index.js";
import { expectNamedHardeningCases } from "./hardening-named-cases.js";
import { runCli } from "./run-cli.js";

// The batteries that do not start the ctxkit binary, at a tiny scale, in-process: the JSON's shape
// and no failure of any class. Those that kill or start the binary (kill-resume, config) run in
// test/bench-hardening.test.ts, an end-to-end test (npm run test:e2e) that runs every battery.
const startsTheBinary = new Set<string>(["kill-resume", "config"]);
const inProcess = batteryNames.filter((name) => !startsTheBinary.has(name));

describe("ctxkit bench hardening, the batteries without a child ctxkit", () => {
  it("runs them at a tiny scale, prints the table and writes JSON with zero failures", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-bench-hardening-"));
    const out = join(cwd, "hardening.json");
    const run = await runCli(["bench", "hardening", "--trials", "3", "--seed", "5", "--only", inProcess.join(","), "--out", out], { cwd, timeoutMs: 300_000 });
    expect(run.stderr).toContain("seed 5");
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/battery\s+trials\s+freezes\s+crashes\s+escapes\s+silent merges\s+lost records/);
    const json = JSON.parse(await readFile(out, "utf8")) as { benchmark: string; seed: number; counts: Record<string, number>; batteries: BatteryResult[]; totals: Record<string, number> };
    expect(json).toMatchObject({ benchmark: "hardening", seed: 5, counts: { "session-files": 3, streams: 3, race: 3 } });
    expect(json.batteries.length).toBe(inProcess.length);
    for (const battery of json.batteries) {
      expect(battery.trials, battery.battery).toBeGreaterThan(0);
      expect({ battery: battery.battery, failures: battery.failures }).toEqual({ battery: battery.battery, failures: [] });
      for (const entry of battery.cases) expect(entry, entry.name).toMatchObject({ passed: true });
    }
    expect(json.totals).toMatchObject({ freezes: 0, crashes: 0, escapes: 0, silentMerges: 0, lostRecords: 0 });
    // Timing is not judged here (it would flake on a loaded machine): at --trials the big events are
    // small and their growth is reported only; the one-byte-chunk parser test guards linearity.
    const bigEvents = json.batteries.find((battery) => battery.battery === "big-event-sse") as BatteryResult & { linearity: Array<{ vendor: string; judged: boolean; exponent: number }> };
    expect(bigEvents.linearity.map((entry) => [entry.vendor, entry.judged])).toEqual([["openai", false], ["anthropic", false]]);
    expect(bigEvents.outcomes).toEqual({ "timing reported": 2 });
    // The original cases of the hardening issues are run by name.
    expectNamedHardeningCases(json.batteries.flatMap((battery) => battery.cases.map((entry) => entry.name)).join("\n"));
  }, 300_000);

  it("refuses an unknown battery with a usage error", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-bench-hardening-"));
    const run = await runCli(["bench", "hardening", "--only", "nonsense"], { cwd });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--only takes batteries among");
  });
});
