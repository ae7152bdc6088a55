import { randomUUID } from "node:crypto";
import { writeFile } from "node:fs/promises";
import { availableParallelism, cpus, platform } from "node:os";
import { dirname, relative, resolve } from "node:path";
import { formatServingReport, runServingBench } from "../../../bench/serving/index.js";
import { createLlama, createTinyQwen3Gguf, type LlamaProvider } from "../../../providers/llama/index.js";
import { loadNodeLlamaCpp } from "../../../providers/llama/load-node-llama-cpp.js";
import { createOpenAICompatible, type OpenAICompatibleVendor } from "../../../providers/openai-compatible/index.js";
import type { Provider } from "../../../providers/provider.js";
import { createQwen3TokenCounter } from "../../../tokens/qwen3-token-counter.js";
import { CtxkitError } from "../../../types/index.js";
import { parseCommandLine, pickCommonOptions } from "../../cli-options.js";
import { positiveIntegerFlag } from "../../number-flags.js";
import type { CliIo } from "../../cli-io.js";
import { benchOutputPath, benchResultsHelp } from "../../bench-output-path.js";
import { createStagedProgressBar } from "../../progress-bar.js";
import { makeDirectoryTree } from "../../../types/make-directory-tree.js";

export const servingBenchHelp = `Usage: ctxkit bench serving [--runs <n>] [--sizes <a,b>] [--threads <n>] [--json] [--out <file>]
       ctxkit bench serving --model-path <file.gguf> [--gpu-layers <n>] [--flash-attention] ...
       ctxkit bench serving --base-url <url> --model <name> [--vendor <name>] [--api-key <key>] [--concurrency <a,b>] ...

Time to first token (TTFT) with the prompt prefix kept vs changed.
Per prefix size and run, a base request warms the cache, then one variant follows: the kept prefix
with a new question, the same with a status bar in the tail, and three breaks — the first token of
the system prompt changed, a tool reordered, the status bar at the top of the system prompt.
Medians of the runs; tokens/s on a 32-token answer; the engine's reused (cached) prompt tokens.

With no --model-path or --base-url it runs offline on a generated tiny Qwen3-architecture model
(random weights, real Qwen3 tokenizer and template) in the embedded llama.cpp engine: its text is
noise, but the prefill and KV-cache reuse are real.

Options:
  --model-path <file> a GGUF model for the embedded engine (needs node-llama-cpp)
  --base-url <url>    an OpenAI-compatible endpoint (live); --model names the model
  --model <name>      live: the model the endpoint serves
  --api-key <key>     live: the endpoint's API key
  --vendor <name>     live: openai (default), vllm, ollama, llamacpp, deepseek, kimi, glm, openrouter
  --sizes <a,b>       prefix sizes in tokens (default 1024,4096,8192; live 1024,4096,8192,16384,32768)
  --runs <n>          runs per measurement (default 3)
  --concurrency <a,b> live: parallel requests per level (default 1,4,16)
  --threads <n>       embedded engine threads (default 1: steady under load)
  --gpu-layers <n>    embedded engine layers offloaded to a GPU
  --flash-attention   embedded engine: use flash attention (off by default: on CPU it halves a cold
                      prefill but slows the short batch after a cached prefix several times)
  --json              print the result as JSON instead of a table
  --out <file>        where the JSON is always written (default bench-results/serving.json)

${benchResultsHelp}`;

/** The flags this benchmark takes (numbers checked by parseCommandLine); its --help lists the same. */
export const servingBenchOptions = { ...pickCommonOptions("json", "vendor", "model", "base-url", "api-key"),
  "model-path": { type: "string" },
  sizes: { type: "string", number: { integer: true, min: 1, list: true } },
  runs: positiveIntegerFlag,
  concurrency: { type: "string", number: { integer: true, min: 1, list: true } },
  threads: positiveIntegerFlag,
  "gpu-layers": positiveIntegerFlag,
  "flash-attention": { type: "boolean" },
  out: { type: "string" },
} as const;

/** `ctxkit bench serving`: experiment 2-1 on the embedded engine (default) or a live endpoint. */
export async function servingBenchCommand(args: string[], io: CliIo): Promise<number> {
  const { flags, extra } = parseCommandLine(args, servingBenchOptions);
  if (flags.help) {
    io.stdout.write(servingBenchHelp);
    return 0;
  }
  const live = flags["base-url"] !== undefined;
  const modelPathFlag = extra["model-path"] as string | undefined;
  const sizes = (extra.sizes as number[] | undefined) ?? (live ? [1024, 4096, 8192, 16384, 32768] : [1024, 4096, 8192]);
  const runs = (extra.runs as number | undefined) ?? 3;
  const threads = (extra.threads as number | undefined) ?? 1;
  const gpuLayers = extra["gpu-layers"] as number | undefined;
  const flashAttention = extra["flash-attention"] === true;
  const concurrency = live ? ((extra.concurrency as number[] | undefined) ?? [1, 4, 16]) : [];
  const started = performance.now();
  const progress = createStagedProgressBar({ stream: io.stderr, enabled: flags.json !== true });

  let provider: Provider;
  let target: Record<string, unknown>;
  let engine: LlamaProvider | undefined;
  if (live) {
    if (!flags.model) throw new CtxkitError("usage_invalid", "ctxkit bench serving --base-url needs --model <name>.");
    provider = createOpenAICompatible({
      vendor: (flags.vendor ?? "openai") as OpenAICompatibleVendor,
      model: flags.model,
      baseURL: flags["base-url"]!,
      ...(flags["api-key"] !== undefined ? { apiKey: flags["api-key"] } : {}),
      env: io.env,
    });
    target = { kind: "openai-compatible", baseURL: flags["base-url"], vendor: flags.vendor ?? "openai", model: flags.model };
  } else {
    await loadNodeLlamaCpp(); // without the engine, say so in one sentence before generating a model
    const modelPath = modelPathFlag === undefined ? await createTinyQwen3Gguf() : resolve(io.cwd, modelPathFlag);
    engine = createLlama({
      modelPath,
      contextSize: Math.max(...sizes) + 1024,
      threads,
      toolChoice: "none",
      flashAttention,
      ...(gpuLayers !== undefined ? { gpuLayers } : {}),
    });
    provider = engine;
    target = { kind: "embedded", modelPath, generatedModel: modelPathFlag === undefined, threads, flashAttention, ...(gpuLayers !== undefined ? { gpuLayers } : {}) };
  }
  const startedAt = new Date().toISOString();
  try {
    const result = await runServingBench({
      provider,
      prefixSizes: sizes,
      runs,
      concurrency,
      counter: createQwen3TokenCounter(),
      nonce: randomUUID().slice(0, 8),
      onProgress: (done, total) => progress.update(done, total, "serving: measurements"),
    });
    progress.stop();
    const elapsedMs = Math.round(performance.now() - started);
    const manifest = {
      benchmark: "serving",
      experiment: "2-1",
      startedAt,
      elapsedMs,
      target,
      prefixSizes: sizes,
      runs,
      concurrency,
      node: process.version,
      platform: `${platform()} ${process.arch}`,
      cpus: availableParallelism(),
      cpuModel: cpus()[0]?.model ?? "unknown",
    };
    const json = { engine: result.engine, model: result.model, rows: result.rows, concurrency: result.concurrency, errors: result.errors, manifest };
    const out = benchOutputPath(io, extra.out as string | undefined, "bench-results/serving.json");
    await makeDirectoryTree(dirname(out));
    await writeFile(out, `${JSON.stringify(json, null, 2)}\n`);
    if (flags.json) io.stdout.write(`${JSON.stringify(json, null, 2)}\n`);
    else io.stdout.write(`${formatServingReport(result)}\nTook ${(elapsedMs / 1000).toFixed(1)} s. Wrote ${relative(io.cwd, out) || out}.\n`);
    return 0;
  } finally {
    progress.stop();
    await engine?.dispose();
  }
}

