import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { dirname, relative, resolve } from "node:path";
import { formatDisclosureReport, runDisclosureBench } from "../../../bench/disclosure/index.js";
import { CtxkitError } from "../../../types/index.js";
import { benchOutputPath, benchResultsHelp } from "../../bench-output-path.js";
import { createStagedProgressBar } from "../../progress-bar.js";
import { parseCommandLine, pickCommonOptions } from "../../cli-options.js";
import { positiveIntegerFlag } from "../../number-flags.js";
import type { CliIo } from "../../cli-io.js";
import { tauCorpusDirectory } from "./tau-paths.js";
import { makeDirectoryTree } from "../../../types/make-directory-tree.js";

export const disclosureBenchHelp = `Usage: ctxkit bench disclosure [--corpus <dir>] [--skills <dir>] [--sizes 10,50,200] [--mcp live|recorded] [--queries <n>] [--json] [--out <file>]

Progressive disclosure (Agent Skills, deferred tools with tool search), offline with a scripted model:
1. Cache safety on the wire: a scripted run lists skills, activates one by /name and one by the
   skill tool, reads a skill file, searches tools twice and calls a found tool, then has a small MCP
   server (started over stdio) add a tool mid-session (notifications/tools/list_changed) and calls it
   through call_tool; every request body (as an OpenAI-compatible server receives it) must extend the
   previous one byte for byte.
2. Prompt tokens, exact Qwen3: the same task with every skill inlined in the system prompt and every
   tool in \`tools\`, vs the skills catalog and deferred tools, for catalogs of 10, 50 and 200 real tool
   definitions (τ-bench airline and retail, and the tools of real MCP servers from npm).
3. Search quality: recall@5 and MRR of tool_search, queries from the τ-bench corpus (first user
   message of each recorded airline dialogue, retail task instructions), gold = the tools of the
   task's gold actions. Tuned on even task ids, measured on odd ones; both halves are printed.

Options:
  --corpus <dir>   folder holding tau-bench/ (default ../shared/corpus, or $CTXKIT_CORPUS); absent: skipped, exit 0
  --skills <dir>   a folder of skill folders (default: the skills playwright-core ships)
  --sizes <list>   catalog sizes for the token comparison (default 10,50,200)
  --mcp <mode>     live: start @modelcontextprotocol/server-everything and server-filesystem over stdio
                   to list their tools (default); recorded: use their recorded tools/list
  --queries <n>    at most n search queries per domain (default all)
  --json           print the result as JSON instead of tables
  --out <file>     where the JSON is always written (default bench-results/disclosure.json)

${benchResultsHelp}`;

/** The flags this benchmark takes (numbers checked by parseCommandLine); its --help lists the same. */
export const disclosureBenchOptions = { ...pickCommonOptions("json"),
  corpus: { type: "string" },
  skills: { type: "string" },
  sizes: { type: "string", number: { integer: true, min: 1, list: true } },
  mcp: { type: "string" },
  queries: positiveIntegerFlag,
  out: { type: "string" },
} as const;

/** `ctxkit bench disclosure`: cache safety, token cost and search quality of progressive disclosure. */
export async function disclosureBenchCommand(args: string[], io: CliIo): Promise<number> {
  const { flags, extra } = parseCommandLine(args, disclosureBenchOptions);
  if (flags.help) {
    io.stdout.write(disclosureBenchHelp);
    return 0;
  }
  const mcp = (extra.mcp as string | undefined) ?? "live";
  if (mcp !== "live" && mcp !== "recorded") throw new CtxkitError("usage_invalid", `--mcp must be live or recorded, got '${mcp}'.`);
  const sizes = (extra.sizes as number[] | undefined) ?? [10, 50, 200];
  const queryLimit = extra.queries as number | undefined;
  const tauDirectory = tauCorpusDirectory(io, extra.corpus);
  if (!existsSync(tauDirectory)) {
    io.stderr.write(`ctxkit bench disclosure: skipped — no τ-bench corpus at ${tauDirectory}. Pass --corpus <dir>, the folder that holds tau-bench/.\n`);
    return 0;
  }
  const started = performance.now();
  const progress = createStagedProgressBar({ stream: io.stderr, enabled: flags.json !== true });
  const report = await runDisclosureBench({
    tauDirectory,
    onProgress: (done, total) => progress.update(done, total, "disclosure: parts"),
    sizes,
    mcp,
    ...(typeof extra.skills === "string" ? { skillsDirectory: resolve(io.cwd, extra.skills) } : {}),
    ...(queryLimit === undefined ? {} : { queryLimit }),
  });
  progress.stop();
  const elapsedMs = Math.round(performance.now() - started);
  const json = { ...report, elapsedMs };
  const out = benchOutputPath(io, extra.out as string | undefined, "bench-results/disclosure.json");
  await makeDirectoryTree(dirname(out));
  await writeFile(out, `${JSON.stringify(json, null, 2)}\n`);
  if (flags.json) io.stdout.write(`${JSON.stringify(json, null, 2)}\n`);
  else io.stdout.write(`${formatDisclosureReport(report)}\n\nTook ${(elapsedMs / 1000).toFixed(1)} s. Wrote ${relative(io.cwd, out) || out}.\n`);
  return report.cacheSafety.undeclaredBreaks === 0 ? 0 : 1;
}
