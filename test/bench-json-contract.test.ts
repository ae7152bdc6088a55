import { startEmbeddingsTestServer } from "../src/tools/search/test-support/embeddings-test-server.js";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { startOpenAIModelServer } from "../src/testing/openai-model-server.js";
import { runCli } from "./run-cli.js";
import { tinyTauCorpus } from "./tiny-tau-corpus.js";

// Every `ctxkit bench <name>` (the list in src/cli/commands/bench-command.ts) with --json prints
// the JSON its --help describes, and writes the same JSON where the help says: --out, else
// bench-results/ inside the ctxkit project, else ctxkit-bench-results/ in the temporary folder.
// Each run uses the smallest inputs its flags allow, so the suite stays bounded.

const corpus = resolve("../shared/corpus");
const hasTau = existsSync(join(corpus, "tau-bench", "trajectories", "gpt-4o-airline.json"));
const hasSwe = existsSync(join(corpus, "swe-gemini"));
type Json = Record<string, unknown>;

/** Runs a benchmark with --json outside any project, its temporary folder private to the run. */
async function benchJson(args: string[], file: string): Promise<{ printed: Json; written: Json; stderr: string; help: string }> {
  const cwd = await mkdtemp(join(tmpdir(), "ctxkit-bench-json-"));
  const temporary = join(cwd, "tmp");
  await mkdir(temporary);
  const run = await runCli(["bench", ...args, "--json"], { cwd, env: { TMPDIR: temporary }, timeoutMs: 400_000 });
  expect(run.code, run.stderr).toBe(0);
  const printed = JSON.parse(run.stdout) as Json;
  expect(existsSync(join(cwd, "bench-results")), "no bench-results/ outside the project").toBe(false);
  const written = JSON.parse(await readFile(join(temporary, "ctxkit-bench-results", file), "utf8")) as Json;
  const helpArgs = args[0] === "tau" ? ["bench", "tau", args[1]!, "--help"] : ["bench", args[0]!, "--help"];
  const help = (await runCli(helpArgs, { cwd })).stdout;
  return { printed, written, stderr: run.stderr, help };
}

/** The help names the default file and the rule for where it goes. */
function expectDocumentedLocation(help: string, file: string): void {
  expect(help).toContain(`bench-results/${file}`);
  expect(help).toContain("bench-results/ when run inside the ctxkit project");
  expect(help).toContain("ctxkit-bench-results/ in the system's temporary folder");
  expect(help).toMatch(/Exit codes: 0 .*1 .*2 a usage error.*130/s);
}

const first = (value: unknown): Json => (value as Json[])[0]!;

describe("ctxkit bench <name> --json", { timeout: 600_000 }, () => {
  it.skipIf(!hasTau)("disclosure: cache safety on the wire, prompt tokens per catalog size, recall@5 and MRR per half", async () => {
    const { printed, written, help } = await benchJson(["disclosure", "--corpus", corpus, "--sizes", "10", "--mcp", "recorded", "--queries", "2"], "disclosure.json");
    expect(written).toEqual(printed);
    expectDocumentedLocation(help, "disclosure.json");
    expect(printed.cacheSafety).toMatchObject({ undeclaredBreaks: 0 });
    expect(first(printed.tokens)).toMatchObject({ tools: 10, inline: { total: expect.any(Number) }, disclosure: { total: expect.any(Number) } });
    const rows = (printed.search as { rows: Json[] }).rows;
    expect(new Set(rows.map((row) => row.half))).toEqual(new Set(["tune", "measure"]));
    expect(rows[0]).toMatchObject({ recallAt5: expect.any(Number), mrr: expect.any(Number) });
  });

  it.skipIf(!hasTau)("guard: false alarms and misses per guard and scenario", async () => {
    // One short dialogue: the guard renders every call whole, seconds a dialogue.
    const { printed, written, help } = await benchJson(["guard", "--corpus", await tinyTauCorpus(corpus), "--limit", "1"], "guard.json");
    expect(written).toEqual(printed);
    expectDocumentedLocation(help, "guard.json");
    const scenario = first(printed.scenarios);
    const guards = ["legacy layer hashes", "wire body", "wire body + Qwen3 tokens"];
    expect(Object.keys(scenario.falseAlarms as Json)).toEqual(guards);
    expect(Object.keys(scenario.misses as Json)).toEqual(guards);
  });

  it("tracing: loop time per arm and round, the tracing-off ratio, the SDK arm's spans ended, exported and dropped", async () => {
    // Shape only (timings are the benchmark's to report, never a test's to assert).
    const { printed, written, help } = await benchJson(["tracing", "--calls", "20", "--rounds", "2"], "tracing.json");
    expect(written).toEqual(printed);
    expectDocumentedLocation(help, "tracing.json");
    expect(printed).toMatchObject({ benchmark: "tracing", calls: 20, rounds: 2, offRatio: { fastest: expect.any(Number), pairedMedian: expect.any(Number) }, offCpuRatio: { fastest: expect.any(Number), pairedMedian: expect.any(Number) }, untracedSpread: expect.any(Number) });
    expect(Object.keys(printed.loopMs as Json)).toEqual(["untraced", "tracing off", "tracing on"]);
    for (const times of [...Object.values(printed.loopMs as Record<string, number[]>), ...Object.values(printed.cpuMs as Record<string, number[]>)]) expect(times).toHaveLength(2);
    // The SDK arm drops nothing: the warm-up and 2 rounds of 20 calls, each run 2 spans per call (chat; tool but the last; the run).
    expect(printed.spans).toEqual({ ended: 3 * 2 * 20, exported: 3 * 2 * 20, dropped: 0 });
  });

  it("isolation: per arm the main context after the task, total tokens, cached share and cost", async () => {
    const { printed, written, help } = await benchJson(["isolation", "--limit", "1"], "isolation.json");
    expect(written).toEqual(printed);
    expectDocumentedLocation(help, "isolation.json");
    const delegation = (printed.sections as Array<{ name: string; result: { runs: Json[] } }>).find((section) => section.name === "delegation")!;
    expect(delegation.result.runs.map((run) => run.arm).sort()).toEqual(["explore", "fork", "main"]);
    expect(delegation.result.runs[0]).toMatchObject({ mainContextTokens: expect.any(Number), totalTokens: expect.any(Number), cachedTokens: expect.any(Number), cost: expect.any(Number) });
  });

  it("injection --offline: success rates with intervals per model, attack and defence", async () => {
    const { printed, written, help } = await benchJson(["injection", "--offline", "--attacks", "direct", "--defences", "none"], "injection.json");
    expect(written).toEqual(printed);
    expectDocumentedLocation(help, "injection.json");
    expect((printed.cells as Json[]).map((cell) => [cell.model, cell.attack, cell.defence])).toEqual([
      ["obeys-all", "direct", "none"],
      ["obeys-outside-tags", "direct", "none"],
    ]);
    expect(first(printed.cells)).toMatchObject({ rate: expect.any(Number), interval: [expect.any(Number), expect.any(Number)] });
  });

  it.skipIf(!hasTau)("kv-cache: per mode prompt tokens, reusable share, uncached tokens, cost under two price lists, cache breaks", async () => {
    const { printed, written, help } = await benchJson(["kv-cache", "--corpus", corpus, "--limit", "1", "--modes", "correct,dynamic_system"], "kv-cache.json");
    expect(written).toEqual(printed);
    expectDocumentedLocation(help, "kv-cache.json");
    expect((printed.modes as Json[]).map((mode) => mode.mode)).toEqual(["correct", "dynamic_system"]);
    expect(first(printed.modes)).toMatchObject({
      promptTokens: expect.any(Number),
      reusableShare: expect.any(Number),
      uncachedTokens: expect.any(Number),
      cost: { anthropic: expect.any(Number), openai: expect.any(Number) },
      undeclaredBreaks: expect.any(Number),
    });
  });

  it.skipIf(!hasTau || !hasSwe)("status-bar --cost: per run statuses and costs under both cache models; --preview and --offline print only", async () => {
    const { printed, written, help } = await benchJson(["status-bar", "--cost", "--corpus", corpus, "--limit", "1"], "status-bar-cost.json");
    expect(written).toEqual(printed);
    expectDocumentedLocation(help, "status-bar-cost.json");
    expect(Object.keys(first(printed.rows).costs as Json)).toEqual(["kv", "prompt"]);
    expect(Object.keys(first(printed.totals).costs as Json)).toEqual(["kv", "prompt"]);
    expect(help).toContain("--preview and --offline write no file");
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-bench-json-"));
    for (const args of [["--preview"], ["--offline", "--tasks", "call-limit", "--arms", "all-on"]]) {
      const run = await runCli(["bench", "status-bar", ...args, "--json"], { cwd, env: { TMPDIR: cwd }, timeoutMs: 120_000 });
      expect(run.code).toBe(0);
      expect(JSON.parse(run.stdout)).toBeTypeOf("object");
    }
    expect(await readdir(cwd)).toEqual([]);
  });

  it("serving (the generated tiny model in the embedded engine): TTFT kept vs changed, tokens/s, reused tokens", async () => {
    const { printed, written, help } = await benchJson(["serving", "--runs", "1", "--sizes", "64"], "serving.json");
    expect(written).toEqual(printed);
    expectDocumentedLocation(help, "serving.json");
    expect(first(printed.rows)).toMatchObject({ ttftKeptMs: expect.any(Number), ttftChangedMs: expect.any(Number), tokensPerSecond: expect.any(Number), reusedTokens: expect.any(Number) });
  });

  it.skipIf(!hasTau)("tau actions: {domain, tasks: [{index, outputs, dataHash}]} as its help says", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "ctxkit-bench-json-"));
    const run = await runCli(["bench", "tau", "actions", "--domain", "airline", "--corpus", corpus, "--tasks", join(corpus, "tau-bench", "airline", "tasks_test.json"), "--json"], { cwd, timeoutMs: 120_000 });
    expect(run.code).toBe(0);
    const json = JSON.parse(run.stdout) as { domain: string; tasks: Json[] };
    expect(Object.keys(json)).toEqual(["domain", "tasks"]);
    expect(Object.keys(json.tasks[0]!)).toEqual(["index", "outputs", "dataHash"]);
    expect((await runCli(["bench", "tau", "actions", "--help"], { cwd })).stdout).toContain('print {"domain", "tasks": [{"index", "outputs", "dataHash"}]}');
  });

  it.skipIf(!hasTau)("tau replay: outputs and rewards reproduced", async () => {
    // The first two recorded dialogues of the corpus (the benchmark has no --limit).
    const directory = await mkdtemp(join(tmpdir(), "ctxkit-bench-json-"));
    const dialogues = (JSON.parse(await readFile(join(corpus, "tau-bench", "trajectories", "gpt-4o-airline.json"), "utf8")) as unknown[]).slice(0, 2);
    await writeFile(join(directory, "two-airline.json"), JSON.stringify(dialogues));
    const { printed, written, help } = await benchJson(["tau", "replay", "--corpus", corpus, "--trajectories", join(directory, "two-airline.json")], "tau-replay.json");
    expect(written).toEqual(printed);
    expectDocumentedLocation(help, "tau-replay.json");
    expect(printed).toMatchObject({ dialogues: 2, outputsMatched: printed.toolCalls, rewardsMatched: 2 });
  });

  it("tau run (a loopback model plays agent and customer): pass^k per arm and a manifest with model, commit, date and prompt hashes", async () => {
    const directory = await mkdtemp(join(tmpdir(), "ctxkit-bench-json-"));
    const domain: Record<string, unknown> = {
      "flights.json": {},
      "reservations.json": { R1: { reservation_id: "R1", user_id: "u1", payment_history: [], status: null } },
      "users.json": { u1: { name: { first_name: "Ana", last_name: "Lopes" }, payment_methods: {}, reservations: ["R1"] } },
      "tools.json": [],
      "tasks.json": [{ user_id: "u1", instruction: "say hello", actions: [], outputs: [] }],
    };
    for (const [name, value] of Object.entries(domain)) await writeFile(join(directory, name), JSON.stringify(value));
    await writeFile(join(directory, "wiki.md"), "# Policy\n");
    const server = await startOpenAIModelServer((body) => (String(body.messages[0]?.content ?? "").includes("You are playing a customer") ? "###STOP###" : "Hello."));
    try {
      const args = ["tau", "run", "--base-url", server.baseURL, "--model", "m", "--domain", "airline", "--domain-dir", directory, "--tasks-file", join(directory, "tasks.json"), "--tasks", "0"];
      const { printed, written, help } = await benchJson(args, "tau-run.json");
      expect(written).toEqual(printed);
      expectDocumentedLocation(help, "tau-run.json");
      expect(printed.manifest).toMatchObject({ model: "m", settings: { temperature: 0 }, date: expect.any(String), promptHashes: { baseline: expect.any(String) } });
      expect(printed.manifest).toHaveProperty("commit");
      // Pass^k, tokens, the cached share and the cost (null: the model "m" has no price in the catalog).
      expect(first(printed.arms)).toMatchObject({ arm: "baseline", passHatK: { "pass^1": expect.any(Number) }, usage: { inputTokens: expect.any(Number) }, cachedShare: expect.any(Number), cost: null });
    } finally {
      await server.close();
    }
  });

  it.skipIf(!hasTau)("tokens: per category characters, exact tokens and errors on both halves, and the throughput", async () => {
    // A few short dialogues: every dialogue is counted exactly with both tokenizers.
    const { printed, written, help } = await benchJson(["tokens", "--corpus", await tinyTauCorpus(corpus, 4), "--limit", "2"], "tokens.json");
    expect(written).toEqual(printed);
    expectDocumentedLocation(help, "tokens.json");
    for (const half of ["heldOut", "fit"] as const) {
      const category = first((printed[half] as Json).categories);
      expect(category).toMatchObject({ characters: expect.any(Number), exact: { qwen3: expect.any(Number), o200k: expect.any(Number) } });
    }
    expect(first((printed.heldOut as Json).throughput)).toMatchObject({ counter: expect.any(String), megabytesPerSecond: expect.any(Number) });
  });

  it("tool-search: recall@5 and MRR per settings and half over one index of real MCP catalogs, the speed at 500 tools", async () => {
    // A three-word GloVe text file: the row with word vectors is there, and says what was read.
    const vectorsFolder = await mkdtemp(join(tmpdir(), "ctxkit-word-vectors-"));
    const vectorsFile = join(vectorsFolder, "glove.3d.txt");
    await writeFile(vectorsFile, "page 1 0.1 0\nbrowser 0.9 0.2 0\nclick 0 0 1\n");
    // A loopback /v1/embeddings server (hashed bags of words, no model): the embedding rows are there and say they got every embedding.
    const embeddingsServer = await startEmbeddingsTestServer();
    const embeddingFlags = ["--embeddings-url", embeddingsServer.baseURL, "--embeddings-model", "test-embed"];
    const { printed, written, help } = await benchJson(["tool-search", "--corpus", corpus, "--word-vectors", vectorsFile, ...embeddingFlags], "tool-search.json").finally(() => embeddingsServer.close());
    expect(written).toEqual(printed);
    expect(help).toContain("--embeddings-url <url>");
    expect((printed.rows as Json[]).filter((row) => row.arm === "defaults + embeddings").map((row) => row.half)).toEqual(["tune", "measure"]);
    expect(printed.embeddings).toMatchObject({ label: `test-embed at ${embeddingsServer.baseURL}`, fallbacks: 0, goalMet: expect.any(Boolean), speed: { tools: 500, fusionMicrosecondsPerQuery: expect.any(Number) } });
    expectDocumentedLocation(help, "tool-search.json");
    expect(help).toContain("--word-vectors <f>");
    expect(printed.wordVectors).toEqual({ file: vectorsFile, words: 3, dimensions: 3 });
    expect((printed.rows as Json[]).map((row) => row.arm)).toContain("defaults + word vectors");
    // Each set of queries alone, so a table printed before round two can be compared.
    const bySet = printed.bySet as Json[];
    expect(new Set(bySet.map((row) => row.set))).toEqual(new Set(["first", "round two", "round three"]));
    // WordNet's related words (opt-in): a row with them, and the shipped table's first read.
    expect((printed.rows as Json[]).map((row) => row.arm)).toContain("defaults + WordNet");
    expect(printed.wordNet).toEqual({ words: expect.any(Number), characters: expect.any(Number), loadMs: expect.any(Number) });
    expect(bySet).toContainEqual(expect.objectContaining({ arm: "defaults", set: "first", half: "measure", recallAt5: expect.any(Number) }));
    await rm(vectorsFolder, { recursive: true, force: true });
    expect((printed.catalog as Json).tools).toBeGreaterThanOrEqual(70);
    const rows = printed.rows as Json[];
    expect(new Set(rows.map((row) => row.half))).toEqual(new Set(["tune", "measure"]));
    expect(rows.map((row) => row.arm)).toContain("defaults");
    expect(rows[0]).toMatchObject({ queries: expect.any(Number), recallAt5: expect.any(Number), mrr: expect.any(Number) });
    expect(printed.speed).toMatchObject({ tools: 500, warmUpRounds: expect.any(Number), microsecondsPerQuery: expect.any(Number), p99Microseconds: expect.any(Number) });
    // The queries written by others are a table of their own, and the goal says whether it is met.
    expect((printed.thirdParty as Json).rows).toContainEqual(expect.objectContaining({ arm: "defaults", queries: 44 }));
    expect(printed.goal).toMatchObject({ recallAt5: 0.95, mrr: 0.85, met: expect.any(Boolean) });
  });

  it.skipIf(!hasTau)("writes to bench-results/ inside the ctxkit project, and to --out when given", async () => {
    const project = await mkdtemp(join(tmpdir(), "ctxkit-bench-json-project-"));
    await writeFile(join(project, "package.json"), JSON.stringify({ name: "ctxkit" }));
    await mkdir(join(project, "deep"));
    const temporary = join(project, "tmp");
    await mkdir(temporary);
    const inside = await runCli(["bench", "kv-cache", "--corpus", corpus, "--limit", "1", "--modes", "correct"], { cwd: join(project, "deep"), env: { TMPDIR: temporary }, timeoutMs: 120_000 });
    expect(inside.code).toBe(0);
    // Run from a subfolder, the JSON still lands in the project's own bench-results/.
    expect(existsSync(join(project, "bench-results", "kv-cache.json"))).toBe(true);
    expect(existsSync(join(project, "deep", "bench-results"))).toBe(false);
    expect(await readdir(temporary)).toEqual([]);
    const chosen = await runCli(["bench", "injection", "--offline", "--attacks", "direct", "--defences", "none", "--out", "mine.json"], { cwd: project, env: { TMPDIR: temporary }, timeoutMs: 120_000 });
    expect(chosen.code).toBe(0);
    expect(existsSync(join(project, "mine.json"))).toBe(true);
  });
});
