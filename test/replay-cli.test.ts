import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "./run-cli.js";

const corpus = resolve("../shared/corpus/swe-gemini");
const files = ["astropy__astropy-12907.traj.json", "django__django-10914.traj.json"].map((name) => join(corpus, name));
const hasCorpus = files.every((file) => existsSync(file));

describe.skipIf(!hasCorpus)("ctxkit replay on two swe-gemini runs", () => {
  it("prints the comparison as JSON, writes it to --out and emits one request line per call", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-replay-test-"));
    const run = await runCli(["replay", ...files, "--window", "32000", "--json", "--out", "report.json", "--emit-requests", "requests"], { cwd, timeoutMs: 120_000 });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as {
      policies: Array<Record<string, unknown>>;
      runs: Array<{ run: string; policy: string; calls: number; error?: string }>;
    };
    expect(JSON.parse(await readFile(join(cwd, "report.json"), "utf8"))).toEqual(report);
    const names = report.policies.map((policy) => policy.policy);
    expect(names.slice(0, 4)).toEqual(["none", "sliding-window", "claude-code", "opencode"]);
    for (const policy of report.policies) {
      expect(Object.keys(policy)).toEqual(expect.arrayContaining(["policy", "runs", "overflows", "compactions", "promptTokens", "uncachedTokens", "cost", "peakTokens", "referenceRecall", "lineRecall"]));
      expect(policy.runs).toBe(2);
      expect(policy.promptTokens).toBeGreaterThan(0);
      expect(policy.referenceRecall).toBeGreaterThan(0);
    }
    expect(report.runs).toHaveLength(2 * names.length);
    expect(report.runs.filter((row) => row.error !== undefined)).toEqual([]);

    const astropy = report.runs.find((row) => row.policy === "none" && row.run === "astropy__astropy-12907")!;
    const emitted = await readFile(join(cwd, "requests", "none", "astropy__astropy-12907.jsonl"), "utf8");
    const lines = emitted.trimEnd().split("\n").map((line) => JSON.parse(line) as { run: string; call: number; promptTokens: number; messages: Array<{ role: string }> });
    expect(lines).toHaveLength(astropy.calls);
    expect(lines[0]).toMatchObject({ run: "astropy__astropy-12907", call: 1 });
    expect(lines[0]!.messages.map((message) => message.role)).toEqual(["system", "user"]);
    expect(lines[1]!.messages.map((message) => message.role)).toEqual(["system", "user", "assistant", "tool"]);
    expect(lines[1]!.promptTokens).toBeGreaterThan(lines[0]!.promptTokens);
    expect((await readdir(join(cwd, "requests"))).sort()).toEqual([...names].sort());
  });

  it("prints a table by default and per-run rows with --verbose", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-replay-test-"));
    const run = await runCli(["replay", files[0]!, "--policy", "none,sliding-window", "--window", "32000", "--verbose"], { cwd, timeoutMs: 60_000 });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/policy\s+half\s+runs\s+overflows\s+rescued\s+compactions\s+prompt tokens\s+uncached tokens\s+summaries\s+cost w\/o summaries\s+cost\s+peak tokens\s+reference recall\s+line recall/);
    expect(run.stdout).toMatch(/astropy__astropy-12907\s+sliding-window/);
    // Outside the ctxkit project the JSON goes to the system's temporary folder, not into the user's.
    expect(existsSync(join(cwd, "bench-results"))).toBe(false);
    expect(existsSync(join(tmpdir(), "ctxkit-bench-results", "replay.json"))).toBe(true);
  });
});

describe.skipIf(!hasCorpus)("ctxkit replay --split", () => {
  it("replays only the runs of the chosen half, fixed by a hash of the run id", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-replay-test-"));
    const halves = await Promise.all(
      (["tune", "measure"] as const).map(async (half) => {
        const run = await runCli(["replay", ...files, "--policy", "none", "--window", "32000", "--split", half, "--json", "--out", `${half}.json`], { cwd, timeoutMs: 120_000 });
        return run.code === 0 ? (JSON.parse(run.stdout) as { runs: Array<{ run: string; half: string }> }).runs : [];
      }),
    );
    const [tune, measure] = halves as [Array<{ run: string; half: string }>, Array<{ run: string; half: string }>];
    expect([...tune, ...measure].map((row) => row.run).sort()).toEqual(["astropy__astropy-12907", "django__django-10914"]);
    expect(tune.every((row) => row.half === "tune") && measure.every((row) => row.half === "measure")).toBe(true);
  });
});

describe("ctxkit replay arguments", () => {
  // Both were exit 1, as if a file were at fault; the help says 2 for a usage error.
  it("names the known policies when given an unknown one (a usage error, exit 2)", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-replay-test-"));
    const run = await runCli(["replay", "x.json", "--policy", "nope"], { cwd });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("ctxkit replay: --policy: Unknown replay policy 'nope'. Use 'all' or a comma-separated list of: none, sliding-window");
    expect(run.stderr).toContain("Usage: ctxkit replay");
  });

  it("names the priced models when --pricing names another (a usage error, exit 2)", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-replay-test-"));
    const run = await runCli(["replay", "x.json", "--pricing", "gpt-9"], { cwd });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^ctxkit replay: --pricing: no prices for 'gpt-9'\. Use one of: gpt-4o, /);
  });
});
