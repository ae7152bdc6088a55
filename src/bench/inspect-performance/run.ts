import { existsSync, readdirSync, statSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { importTranscriptFiles, type InspectTokenizer } from "../../inspect/index.js";
import { getTokenCounter } from "../../tokens/index.js";
import { formatInspectPerformance } from "./format-inspect-performance.js";
import { measureInspectPerformance, type InspectTiming } from "./measure-inspect-performance.js";
import { buildSyntheticTranscript } from "./synthetic-transcript.js";

const usage = `Usage: node dist/bench/inspect-performance/run.js [--corpus <dir>] [--json <out.json>] [--runs <n>] [--calls <n>] [--tokenizer qwen3|o200k|estimate] [--compare-full]

Times 'ctxkit inspect' on the largest swe-gemini runs and on a synthetic run of --calls calls (500)
replayed from them, and prints per-call time by quarter of each run: it should stay flat as the
context grows, because each message is rendered and tokenized once. --compare-full also times the
whole-template rendering on the synthetic run (slow: it grows with the context).
`;

/** The inspect performance benchmark: prints a table, optionally writes JSON. Skips with a message when the corpus is absent. */
async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      corpus: { type: "string" },
      json: { type: "string" },
      runs: { type: "string" },
      calls: { type: "string" },
      tokenizer: { type: "string" },
      "compare-full": { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) {
    console.log(usage);
    return 0;
  }
  const corpus = resolve(values.corpus ?? "../shared/corpus");
  const directory = join(corpus, "swe-gemini");
  if (!existsSync(directory)) {
    console.log(`Skipped: no swe-gemini corpus at ${directory} (pass --corpus <dir>).`);
    return 0;
  }
  const tokenizer = (values.tokenizer ?? "qwen3") as InspectTokenizer;
  const files = readdirSync(directory)
    .filter((name) => name.endsWith(".traj.json"))
    .map((name) => join(directory, name))
    .sort((left, right) => statSync(right).size - statSync(left).size)
    .slice(0, Number(values.runs ?? 3));
  const { transcripts } = await importTranscriptFiles(files);
  const synthetic = buildSyntheticTranscript(transcripts, { calls: Number(values.calls ?? 500) });

  // Load the vocabulary first, so the timings measure inspect, not a one-time ~1 s load.
  const loadStarted = performance.now();
  getTokenCounter(tokenizer === "qwen3" ? "qwen3" : tokenizer).count("warm-up");
  const loadMs = performance.now() - loadStarted;

  const timings: InspectTiming[] = [];
  for (const transcript of [...transcripts, synthetic]) timings.push(measureInspectPerformance(transcript, { tokenizer }));
  if (values["compare-full"] && tokenizer === "qwen3") {
    timings.push({ ...measureInspectPerformance(synthetic, { tokenizer, rendering: "full" }), name: `${synthetic.id} (full render)` });
  }
  console.log(`ctxkit inspect performance — tokenizer ${tokenizer}; vocabulary load ${(loadMs / 1000).toFixed(2)} s (not included)\n`);
  console.log(formatInspectPerformance(timings));
  console.log("\nQ1–Q4: mean time per call in each quarter of the run, with the mean prompt size (context) of that quarter.");
  if (values.json !== undefined) {
    const out = resolve(values.json);
    await writeFile(out, `${JSON.stringify({ tokenizer, vocabularyLoadMs: loadMs, node: process.version, runs: timings }, null, 2)}\n`);
    console.log(`Wrote ${out}`);
  }
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  },
);
