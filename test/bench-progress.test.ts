import { existsSync } from "node:fs";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { startOpenAIModelServer } from "../src/testing/openai-model-server.js";
import { runCli, type CliRunOptions } from "./run-cli.js";
import { stripAnsi } from "./run-pty.js";
import { tinyTauCorpus } from "./tiny-tau-corpus.js";

// Long benchmarks show a progress bar (counts, percentage, ETA) on a terminal's stderr, and nothing when piped.
// "On a terminal" here: stdout and stderr say they are a 100×40 terminal, as a pseudo-terminal's do
// (test/e2e/bench-progress-terminal.test.ts shows the bar on a real one).
const corpus = resolve("../shared/corpus");
// The guard's whole renders and the exact counts of every dialogue take seconds: their bars are
// checked on a few short recorded dialogues.
let tinyCorpus = corpus;
beforeAll(async () => {
  if (existsSync(join(corpus, "tau-bench"))) tinyCorpus = await tinyTauCorpus(corpus, 4);
});

/** What a person would see: both streams, escapes removed. */
async function onTerminal(args: string[], options: CliRunOptions): Promise<{ code: number | null; screen: string }> {
  const run = await runCli(args, { timeoutMs: 300_000, ...options, terminal: true });
  return { code: run.code, screen: stripAnsi(`${run.stdout}${run.stderr}`) };
}

describe("benchmark progress bars", { timeout: 240_000 }, () => {
  it("shows one for bench status-bar --offline on a terminal, and per-run lines instead when piped", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-bench-progress-"));
    const terminal = await onTerminal(["bench", "status-bar", "--offline", "--repeats", "1"], { cwd });
    expect(terminal.code).toBe(0);
    expect(terminal.screen).toMatch(/status-bar: runs \[[^\]]*\] \d+\/\d+ \| \d+% \| ETA/);
    const piped = await runCli(["bench", "status-bar", "--offline", "--repeats", "1"], { cwd, timeoutMs: 180_000 });
    expect(piped.code).toBe(0);
    expect(piped.stderr).not.toContain("status-bar: runs [");
    expect(piped.stderr).toMatch(/: (success|failure) \(/);
  });

  it.skipIf(!existsSync(join(corpus, "tau-bench")))("shows one for bench kv-cache on a terminal, and nothing when piped", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-bench-progress-"));
    const args = ["bench", "kv-cache", "--limit", "3", "--corpus", corpus, "--out", join(cwd, "kv.json")];
    const terminal = await onTerminal(args, { cwd });
    expect(terminal.code).toBe(0);
    expect(terminal.screen).toMatch(/kv-cache: dialogues \[[^\]]*\] \d\/3 \| \d+% \| ETA/);
    const piped = await runCli(args, { cwd, timeoutMs: 180_000 });
    expect(piped.code).toBe(0);
    expect(piped.stderr).not.toContain("kv-cache: dialogues");
  });

  it.skipIf(!existsSync(join(corpus, "swe-gemini")))("shows one for bench status-bar --cost on a terminal", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-bench-progress-"));
    const terminal = await onTerminal(["bench", "status-bar", "--cost", "--limit", "3", "--corpus", corpus, "--out", join(cwd, "cost.json")], { cwd });
    expect(terminal.code).toBe(0);
    expect(terminal.screen).toMatch(/status-bar cost [\w-]+: runs \[[^\]]*\] \d\/\d \| \d+% \| ETA/);
  });

  // Each long benchmark, in its smallest run: a bar on a terminal, none piped or with --json
  // (bench view starts the built binary: test/e2e/bench-view.test.ts).
  const bars: Array<{ name: string; args: (cwd: string) => string[]; bar: RegExp; needs?: string }> = [
    { name: "tokens", needs: "tau-bench", args: (cwd) => ["bench", "tokens", "--corpus", tinyCorpus, "--limit", "1", "--out", join(cwd, "out.json")], bar: /tokens: exact counts \[[^\]]*\] \d+\/\d+ \| \d+% \| ETA/ },
    { name: "guard", needs: "tau-bench", args: (cwd) => ["bench", "guard", "--corpus", tinyCorpus, "--limit", "1", "--out", join(cwd, "out.json")], bar: /guard: scenarios \[[^\]]*\] \d+\/\d+ \| \d+% \| ETA/ },
    { name: "injection --offline", args: (cwd) => ["bench", "injection", "--offline", "--attacks", "direct", "--defences", "none", "--out", join(cwd, "out.json")], bar: /injection: trials \[[^\]]*\] \d+\/\d+ \| \d+% \| ETA/ },
    { name: "isolation", args: (cwd) => ["bench", "isolation", "--limit", "1", "--out", join(cwd, "out.json")], bar: /isolation: sections \[[^\]]*\] \d+\/\d+ \| \d+% \| ETA/ },
    {
      name: "disclosure",
      needs: "tau-bench",
      args: (cwd) => ["bench", "disclosure", "--corpus", corpus, "--sizes", "10", "--mcp", "recorded", "--queries", "2", "--out", join(cwd, "out.json")],
      bar: /disclosure: parts \[[^\]]*\] \d+\/\d+ \| \d+% \| ETA/,
    },
    { name: "serving", args: (cwd) => ["bench", "serving", "--runs", "1", "--sizes", "64", "--out", join(cwd, "out.json")], bar: /serving: measurements \[[^\]]*\] \d+\/\d+ \| \d+% \| ETA/ },
  ];
  for (const { name, args, bar, needs } of bars) {
    it.skipIf(needs !== undefined && !existsSync(join(corpus, needs)))(`shows one for bench ${name} on a terminal, and nothing when piped or with --json`, async () => {
      const cwd = await mkdtemp(join(tmpdir(), "ctxkit-bench-progress-"));
      const terminal = await onTerminal(args(cwd), { cwd });
      expect(terminal.code).toBe(0);
      expect(terminal.screen).toMatch(bar);
      const label = bar.source.split(" \\[")[0]!;
      const piped = await runCli(args(cwd), { cwd, timeoutMs: 300_000 });
      expect(piped.code).toBe(0);
      expect(piped.stderr).not.toContain(label);
      const json = await onTerminal([...args(cwd), "--json"], { cwd });
      expect(json.code).toBe(0);
      expect(json.screen).not.toContain(label);
    });
  }

  it.skipIf(!existsSync(join(corpus, "tau-bench")))("shows one for bench tau replay on a terminal", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-bench-progress-"));
    const dialogues = (JSON.parse(await readFile(join(corpus, "tau-bench", "trajectories", "gpt-4o-airline.json"), "utf8")) as unknown[]).slice(0, 3);
    await writeFile(join(cwd, "three.json"), JSON.stringify(dialogues));
    const terminal = await onTerminal(["bench", "tau", "replay", "--corpus", corpus, "--trajectories", join(cwd, "three.json"), "--out", join(cwd, "out.json")], { cwd });
    expect(terminal.code).toBe(0);
    expect(terminal.screen).toMatch(/tau replay: dialogues \[[^\]]*\] \d\/3 \| \d+% \| ETA/);
  });

  it("shows one for bench tau run on a terminal, and one line per dialogue when piped", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-bench-progress-"));
    const files: Record<string, unknown> = {
      "flights.json": {},
      "reservations.json": {},
      "users.json": { u1: { name: { first_name: "Ana", last_name: "Lopes" }, payment_methods: {}, reservations: [] } },
      "tools.json": [],
      "tasks.json": [{ user_id: "u1", instruction: "say hello", actions: [], outputs: [] }],
    };
    for (const [name, value] of Object.entries(files)) await writeFile(join(cwd, name), JSON.stringify(value));
    await writeFile(join(cwd, "wiki.md"), "# Policy\n");
    const server = await startOpenAIModelServer((body) => (String(body.messages[0]?.content ?? "").includes("You are playing a customer") ? "###STOP###" : "Hello."));
    try {
      const args = ["bench", "tau", "run", "--base-url", server.baseURL, "--model", "m", "--domain", "airline", "--domain-dir", cwd, "--tasks-file", join(cwd, "tasks.json"), "--tasks", "0", "--trials", "3", "--out", join(cwd, "out.json")];
      const terminal = await onTerminal(args, { cwd });
      expect(terminal.code).toBe(0);
      expect(terminal.screen).toMatch(/tau run: dialogues \[[^\]]*\] \d\/3 \| \d+% \| ETA/);
      const piped = await runCli(args, { cwd, timeoutMs: 120_000 });
      expect(piped.stderr).not.toContain("tau run: dialogues");
      expect(piped.stderr).toContain("baseline task 0 trial 2: reward");
    } finally {
      await server.close();
    }
  });
});
