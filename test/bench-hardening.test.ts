import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { BatteryResult } from "../src/bench/hardening/index.js";
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
    // The originals are run by name.
    const names = json.batteries.flatMap((battery) => battery.cases.map((entry) => entry.name)).join("\n");
    for (const original of ["^(a+)+$", "FIFO", "stalls after the headers", "same index", "index in use", "duplicated session line", "50 MB", "max_results 1000000", "200k-character word", "overflow: Gemini"]) {
      expect(names).toContain(original);
    }
    // Issue 30's cases: session self-consistency, big-event SSE, the listing race, process groups, a 50 MB string.
    for (const original of [
      "session self-consistency: final answer removed, run_end still says final_answer",
      "session self-consistency: a usage figure edited into another valid number",
      "session self-consistency: a tool result edited: resume refused and the file named as edited",
      "session self-consistency: header edited from format 4 to 3",
      "session self-consistency: a trailing blank line",
      "session self-consistency: compacted session, last tool message removed",
      "openai: SSE time linear in one event's size",
      "anthropic: SSE time linear in one event's size",
      "list_dir/glob/grep under a folder<->link racer (flip",
      "list_dir/glob/grep under a folder<->link racer (swap",
      "bash: (sleep 25 &) ends with its call",
      'bash: setsid sh -c "sleep 26" killed on timeout',
      "bash: env -i setsid escape killed on timeout",
      "a tool returning a 50 MB string",
      "overflow: Cohere",
    ]) {
      expect(names).toContain(original);
    }
  }, 600_000);

  it("refuses an unknown battery with a usage error", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-bench-hardening-"));
    const run = await runCli(["bench", "hardening", "--only", "nonsense"], { cwd });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--only takes batteries among");
  });
});
