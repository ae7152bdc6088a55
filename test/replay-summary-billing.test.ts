import { copyFile, mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadRecordedRuns } from "../src/bench/replay/load-recorded-runs.js";
import { createPromptMeter } from "../src/bench/replay/prompt-meter.js";
import type { RecordedRun } from "../src/bench/replay/recorded-run.js";
import { replayRun } from "../src/bench/replay/replay-run.js";
import { summarizeReplayedRun } from "../src/bench/replay/replay-summary.js";
import { createSummaryRecorder } from "../src/bench/replay/summary-calls.js";
import { askInBand, type PlanInput } from "../src/context/compression/plan-compression.js";
import { resolveCompressionSettings } from "../src/context/compression/compression-options.js";
import type { ContextPolicy } from "../src/context/context-policy.js";
import { createDeterministicSummarizer } from "../src/context/compression/deterministic-summarizer.js";
import type { ModelPricing } from "../src/tokens/pricing.js";
import type { Message } from "../src/types/index.js";
import { assistant, characterCounter, tool, user } from "./replay-support.js";

const pricing: ModelPricing = { provider: "test", cacheRule: "openai-automatic", input: 2, cacheRead: 0.5, output: 8 };
const fixtures = join(import.meta.dirname, "../src/inspect/importers/fixtures");

function recordedRun(messages: Message[]): RecordedRun {
  const calls = messages.flatMap((message, index) => (message.role === "assistant" ? [{ index }] : []));
  return { id: "run-1", file: "run-1.json", format: "mini-swe-agent", system: { staticText: "SYS!" }, tools: [], messages, calls };
}

describe("summary billing", () => {
  it("bills a separate summary call at the input price for its whole prompt, plus its output", async () => {
    const run = recordedRun([
      user("task", "task"),
      assistant("a1", "", { id: "c1", name: "bash", args: { command: "ls" } }),
      tool("t1", "c1", "file_a.py ".repeat(30)),
      assistant("a2", "done"),
    ]);
    const meter = createPromptMeter(characterCounter);
    const summaries = createSummaryRecorder(createDeterministicSummarizer(), meter, pricing);
    // A policy that asks for one compaction summary before the second call and then drops nothing.
    const policy: ContextPolicy = {
      name: "summarises",
      prepareContext: async (state) => {
        if (state.iteration === 1) await summaries.summarizer.summarize({ purpose: "compaction", sources: [{ label: "t1", kind: "tool", text: "file_a.py" }], maxTokens: 50 });
        return undefined;
      },
    };
    const replayed = await replayRun(run, policy, { contextWindow: 10_000, meter, pricing, pairs: [], summaries });
    expect(replayed.summaryCalls).toHaveLength(1);
    const [call] = replayed.summaryCalls;
    expect(call).toMatchObject({ beforeCall: 2, mode: "separate", purpose: "compaction", reusablePrefixTokens: 0 });
    expect(call!.uncachedTokens).toBe(call!.promptTokens);
    expect(call!.cost).toBeCloseTo((call!.promptTokens * 2 + call!.outputTokens * 8) / 1e6, 12);
    const row = summarizeReplayedRun(replayed);
    expect(row.summaryCalls).toBe(1);
    expect(row.cost).toBeCloseTo(row.callCost + call!.cost, 12);
    expect(summaries.summarizer.name).not.toBe("deterministic"); // policies must treat it as a model call
  });
});

describe("ctxkit's in-band choice", () => {
  const settings = (summaryRequest: "separate" | "in-band" | "auto") => resolveCompressionSettings({ contextWindow: 10_000, cachedPriceRatio: 0.1, summaryRequest });
  const input = (extra: Partial<PlanInput> = {}): PlanInput => ({ messages: [], prefixTokens: 0, scale: 1, targetTokens: 0, hard: false, layers: "all", batch: 1, now: new Date(0), prefix: { system: { staticText: "" }, tools: [] }, ...extra });
  const sources = (tokens: number) => [{ label: "s", kind: "tool" as const, text: "x".repeat(tokens * 4) }];

  it("auto: in-band when the cached conversation costs less than resending what is summarised", () => {
    // 8,000 cached tokens at 0.1 = 800 < 1,000 summarised tokens: in-band pays.
    expect(askInBand(input(), settings("auto"), 8_000, sources(1_000))).toBe(true);
    expect(askInBand(input(), settings("auto"), 8_000, sources(700))).toBe(false);
    // A cold cache serves nothing; after an overflow the conversation does not fit the window.
    expect(askInBand(input({ cacheCold: true }), settings("auto"), 8_000, sources(5_000))).toBe(false);
    expect(askInBand(input({ hard: true }), settings("in-band"), 8_000, sources(5_000))).toBe(false);
    expect(askInBand(input(), settings("separate"), 8_000, sources(5_000))).toBe(false);
    expect(askInBand(input(), settings("in-band"), 8_000, sources(10))).toBe(true);
  });
});

describe("--format all", () => {
  it("finds transcripts of every format in nested folders and skips files no importer recognises", async () => {
    const folder = await mkdtemp(join(tmpdir(), "ctxkit-replay-all-"));
    await copyFile(join(fixtures, "mini-swe-agent.traj.json"), join(folder, "a.traj.json"));
    const nested = join(folder, "more", "deeper");
    await mkdir(nested, { recursive: true });
    await copyFile(join(fixtures, "swe-agent-gpt-4o.traj"), join(nested, "b.traj"));
    await writeFile(join(folder, "flights.json"), JSON.stringify({ HAT001: { origin: "SFO" } }));
    const loaded = await loadRecordedRuns([folder], { format: "all" });
    expect(loaded.runs.map((run) => run.format).sort()).toEqual(["mini-swe-agent", "swe-agent"]);
    expect(loaded.problems).toContainEqual({ file: join(folder, "flights.json"), reason: "skipped: not a transcript of any known format" });
  });
});

describe("the matrix table's yardstick", () => {
  it("is the cheapest agent comparator with no overflow in the cell; baselines and overflowing ones do not count", async () => {
    const { cheapestCleanComparatorCost } = await import("../src/bench/replay/format-matrix-table.js");
    const row = (policy: string, cost: number, overflows = 0) => ({ policy, runs: 5, overflows, cost, errors: 0 }) as Parameters<typeof cheapestCleanComparatorCost>[0][number];
    const rows = [row("none", 1), row("codex", 3, 2), row("pi", 5), row("deepagents", 4), row("ctxkit", 2)];
    expect(cheapestCleanComparatorCost(rows, ["codex", "pi", "deepagents"])).toBe(4);
    expect(cheapestCleanComparatorCost([row("codex", 3, 1)], ["codex"])).toBeUndefined();
  });
});
