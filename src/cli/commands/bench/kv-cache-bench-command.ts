import { writeFile } from "node:fs/promises";
import { createStagedProgressBar } from "../../progress-bar.js";
import { benchOutputPath, benchResultsHelp } from "../../bench-output-path.js";
import { dirname, relative, resolve } from "node:path";
import {
  contextModes,
  formatEngineKvCacheReport,
  formatLiveKvCacheReport,
  formatOfflineKvCacheReport,
  loadTauBenchDialogues,
  locateTauBenchCorpus,
  runEngineKvCacheBench,
  runLiveKvCacheBench,
  runOfflineKvCacheBench,
  type ContextMode,
} from "../../../bench/kv-cache/index.js";
import { createLlama, createTinyQwen3Gguf } from "../../../providers/llama/index.js";
import { createOpenAICompatible, type OpenAICompatibleVendor } from "../../../providers/openai-compatible/index.js";
import { TranscriptError, ConfigError } from "../../../types/index.js";
import { parseCommandLine, pickCommonOptions } from "../../cli-options.js";
import { positiveIntegerFlag } from "../../number-flags.js";
import type { CliIo } from "../../cli-io.js";
import { makeDirectoryTree } from "../../../types/make-directory-tree.js";

export const kvCacheBenchHelp = `Usage: ctxkit bench kv-cache [--limit <dialogues>] [--modes <a,b>] [--corpus <dir>] [--json] [--out <file>]
       ctxkit bench kv-cache --live --model <name> [--base-url <url>] [--vendor <name>] [--api-key <key>] [--limit <n>] [--modes <a,b>]
       ctxkit bench kv-cache --live --engine [--model-path <file.gguf>] [--threads <n>] [--calls <n>] [--limit <n>] [--modes <a,b>]

Prompt-cache reuse: the recorded τ-bench airline dialogues replayed under six ways of
building the context — ${contextModes.join(", ")} — and what each does to prompt caching.

Offline (default): renders every request with Qwen3's chat template and counts exact tokens; per
mode prints prompt tokens, the share reusable from the previous call's prefix, uncached tokens, the
prompt cost under Anthropic (claude-sonnet-4-5) and OpenAI (gpt-4.1) cache pricing, and the cache
breaks the prefix guard finds.
Live (--live): sends the same requests (max 1 output token, streaming) to an OpenAI-compatible
endpoint and reports time to first token and the cached tokens the provider reports.
Embedded engine (--live --engine): the same requests through the embedded llama.cpp engine's KV
cache (by default a generated tiny Qwen3-architecture model: random weights, real tokenizer and
template, offline), with the reuse the engine reports and TTFT next to the offline exact numbers.

Options:
  --live              measure against a live endpoint, given by the next four flags
  --model <name>      live: the model name (required with --live)
  --base-url <url>    live: the endpoint (default: the vendor's)
  --vendor <name>     live: openai (default), vllm, ollama, llamacpp, deepseek, kimi, glm, openrouter
  --api-key <key>     live: the API key (default: the vendor's environment variable)
  --engine            live: the embedded llama.cpp engine (needs node-llama-cpp) instead of an endpoint
  --model-path <file> engine: a GGUF model (default: a generated tiny model, its text is noise)
  --threads <n>       engine: CPU threads (default 1: steady under load)
  --calls <n>         engine: only the first n calls of each dialogue (default 4; a broken prefix
                      is a full prefill, slow on a CPU)
  --corpus <dir>      folder holding tau-bench/ (default ../shared/corpus); absent: skipped, exit 0
  --limit <n>         dialogues to use (default: all offline, 3 live)
  --modes <a,b>       only these modes
  --json              print the result as JSON instead of a table
  --out <file>        where the JSON is always written (default bench-results/kv-cache.json,
                      live: bench-results/kv-cache-live.json, engine: bench-results/kv-cache-engine.json)

${benchResultsHelp}`;

/** The flags this benchmark takes (numbers checked by parseCommandLine); its --help lists the same. */
export const kvCacheBenchOptions = { ...pickCommonOptions("json", "vendor", "model", "base-url", "api-key"),
  live: { type: "boolean" },
  engine: { type: "boolean" },
  "model-path": { type: "string" },
  threads: positiveIntegerFlag,
  calls: positiveIntegerFlag,
  limit: positiveIntegerFlag,
  modes: { type: "string" },
  corpus: { type: "string" },
  out: { type: "string" },
} as const;

/** `ctxkit bench kv-cache`: runs experiment 2-3 offline (default) or against a live endpoint. */
export async function kvCacheBenchCommand(args: string[], io: CliIo): Promise<number> {
  const { flags, extra } = parseCommandLine(args, kvCacheBenchOptions);
  if (flags.help) {
    io.stdout.write(kvCacheBenchHelp);
    return 0;
  }
  const live = extra.live === true;
  const engine = live && (extra.engine === true || extra["model-path"] !== undefined);
  if (!live && (extra.engine === true || extra["model-path"] !== undefined)) throw new ConfigError("usage_invalid", "--engine and --model-path measure live: add --live.");
  const modes = parseModes(extra.modes as string | undefined);
  const limit = (extra.limit as number | undefined) ?? (live ? 3 : undefined);
  const corpus = resolve(io.cwd, (extra.corpus as string | undefined) ?? "../shared/corpus");
  const location = locateTauBenchCorpus(corpus);
  if (!location.found) {
    io.stderr.write(
      `ctxkit bench kv-cache: skipped — the τ-bench corpus is not under ${corpus} (missing ${location.missing.join(", ")}). ` +
        "Pass --corpus <dir>, the folder that holds tau-bench/.\n",
    );
    return 0;
  }
  const started = performance.now();
  const loaded = await loadTauBenchDialogues(location.files, limit === undefined ? {} : { limit });
  for (const problem of loaded.problems) io.stderr.write(`warning: ${problem.file}: ${problem.reason}\n`);
  if (loaded.systemMismatches.length > 0) {
    io.stderr.write(`warning: ${loaded.systemMismatches.length} dialogues' system message differs from wiki.md (${loaded.systemMismatches.slice(0, 3).join(", ")}…); wiki.md is used.\n`);
  }
  if (loaded.dialogues.length === 0) throw new TranscriptError(`No dialogue in ${location.files.trajectories} could be read.`);

  // Counts and an ETA on a terminal; nothing when piped or with --json.
  const progress = createStagedProgressBar({ stream: io.stderr, enabled: flags.json !== true });
  let report: { text: string; json: Record<string, unknown>; defaultOut: string };
  if (engine) {
    const modelPathFlag = extra["model-path"] as string | undefined;
    const modelPath = modelPathFlag === undefined ? await createTinyQwen3Gguf() : resolve(io.cwd, modelPathFlag);
    const threads = (extra.threads as number | undefined) ?? 1;
    const callsPerDialogue = (extra.calls as number | undefined) ?? 4;
    const provider = createLlama({ modelPath, threads, contextSize: 32_768, toolChoice: "none", seed: 1 });
    try {
      const result = await runEngineKvCacheBench({
        provider,
        dialogues: loaded.dialogues,
        modes,
        callsPerDialogue,
        onCall: ({ mode, call, calls }) => progress.update(call, calls, `kv-cache ${mode} (engine): calls`),
      });
      const target = { modelPath, generatedModel: modelPathFlag === undefined, threads };
      report = { text: formatEngineKvCacheReport(result), json: { benchmark: "kv-cache", live: true, target, ...result }, defaultOut: "bench-results/kv-cache-engine.json" };
    } finally {
      await provider.dispose();
    }
  } else if (live) {
    const provider = createOpenAICompatible({
      vendor: (flags.vendor ?? "openai") as OpenAICompatibleVendor,
      model: flags.model ?? "",
      ...(flags["base-url"] !== undefined ? { baseURL: flags["base-url"] } : {}),
      ...(flags["api-key"] !== undefined ? { apiKey: flags["api-key"] } : {}),
      env: io.env,
    });
    const result = await runLiveKvCacheBench({
      provider,
      dialogues: loaded.dialogues,
      modes,
      onCall: ({ mode, call, calls }) => progress.update(call, calls, `kv-cache ${mode}: calls`),
    });
    report = { text: formatLiveKvCacheReport(result), json: { benchmark: "kv-cache", live: true, ...result }, defaultOut: "bench-results/kv-cache-live.json" };
  } else {
    const result = runOfflineKvCacheBench({
      dialogues: loaded.dialogues,
      modes,
      onDialogue: (done, total) => progress.update(done, total, "kv-cache: dialogues"),
    });
    report = { text: formatOfflineKvCacheReport(result), json: { benchmark: "kv-cache", live: false, ...result }, defaultOut: "bench-results/kv-cache.json" };
  }
  progress.stop();
  const elapsedMs = Math.round(performance.now() - started);
  const json = { ...report.json, corpus: location.files.trajectories, elapsedMs };
  const out = benchOutputPath(io, extra.out as string | undefined, report.defaultOut);
  await makeDirectoryTree(dirname(out));
  await writeFile(out, `${JSON.stringify(json, null, 2)}\n`);
  if (flags.json) {
    io.stdout.write(`${JSON.stringify(json, null, 2)}\n`);
  } else {
    io.stdout.write(`${report.text}\nTook ${(elapsedMs / 1000).toFixed(1)} s. Wrote ${relative(io.cwd, out) || out}.\n`);
  }
  return 0;
}

function parseModes(value: string | undefined): ContextMode[] {
  if (value === undefined) return [...contextModes];
  const names = value.split(",").map((name) => name.trim()).filter((name) => name !== "");
  const unknown = names.filter((name) => !(contextModes as readonly string[]).includes(name));
  if (names.length === 0 || unknown.length > 0) {
    throw new ConfigError("usage_invalid", `Unknown mode${unknown.length === 1 ? "" : "s"} '${unknown.join(", ") || value}' in --modes. Use any of: ${contextModes.join(", ")}.`);
  }
  return names as ContextMode[];
}
