import { readdir, stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import { findOpenHandsConversationFolder, INSPECT_TOKENIZERS, inspectFiles, loadOpenAIToolsFile, TRANSCRIPT_FORMATS, type ImportProblem, type InspectTokenizer, type TranscriptFormat } from "../../inspect/index.js";
import { loadPricingSelection } from "../../session/load-pricing.js";
import { ConfigError, TranscriptError } from "../../types/index.js";
import { parseCommandLine, pickCommonOptions } from "../cli-options.js";
import { positiveIntegerFlag } from "../number-flags.js";
import type { CliIo } from "../cli-io.js";
import { resolveTranscriptInput } from "../resolve-transcript-input.js";
import { formatInspectReport } from "../inspect/format-inspect-report.js";
import { toInspectJson } from "../inspect/inspect-json.js";
import { createTerminalStyle, shouldUseColor } from "../terminal-style.js";

export const inspectHelp = `Usage: ctxkit inspect <file|dir|session-id…> [options]

Shows what the model saw on every call of a recorded run — a ctxkit session or another agent's
transcript: prompt tokens, the tokens reusable from the previous call's prefix, the tokens the
provider reported as cached, new tokens, where the tokens come from (system, tools, user, assistant,
tool results, harness messages), the cache breaks with their layer and cause, and in the "cache
miss" column why a call got fewer cached tokens than the previous prompt left reusable: the prefix
or tool set changed, a server-side edit, the model or effort changed, the cache expired (the gap
against the lifetime: the one a ctxkit session recorded, else 5 minutes, 1 hour once a call wrote
1-hour entries), or the provider missed it for no visible reason — with the dollars re-billed
(what the call paid for those tokens less what cache reads would have cost). Then totals, the
append-only limit (the reusable share perfect prefix reuse would give), cost, and the anti-patterns
found (changing system prompt, reordered tools, deleted or flattened history, tool output in user
messages, edited earlier messages, reasoning dropped where the vendor requires it).

Options:
  --format <name>      auto (default), ctxkit, openai-log, claude-code, codex, mini-swe-agent,
                       swe-agent, openhands, gemini-cli, aider, tau-bench, tau2-bench
  --tokenizer <name>   qwen3 (default: Qwen3 chat template + tokenizer, exact), o200k (OpenAI's
                       tokenizer; its chat format is not public, so within a few %), estimate
  --tools <file>       OpenAI tool schemas for formats that do not record them (τ-bench, Claude Code,
                       Codex, mini-swe-agent v2, SWE-agent, OpenHands, Gemini CLI)
  --pricing <p>        a catalog model name (e.g. gpt-4o, claude-sonnet-4-5) or a JSON file with
                       {input, cacheRead, output, cacheWrite?, cacheRule?} or {models: {...}};
                       default: each call's own model in the built-in catalog; the report says
                       which prices were used and when another model's were taken
  --limit <n>          analyse only the first n transcripts
  --workspace <dir>, --data-dir <dir>   where to find a session given by id
  --database-url <url> a session id reads that session from PostgreSQL (default: CTXKIT_DATABASE_URL)
  --json               print JSON: {transcripts: [{id, format, file, calls, totals, findings, notes}],
                       totals, findings, problems}; with one transcript the top level also has its calls
  --no-color           plain output

A folder stands for the transcripts in it (*.traj.json if it has any, else *.json and *.jsonl); an
OpenHands V1 conversation folder (base_state.json and events/) is one transcript. A name that is no file is looked up as a session id, as in 'ctxkit view': in <data-dir>/sessions
(default <workspace>/.ctxkit/sessions; --workspace, --data-dir, CTXKIT_DATA_DIR), or in the database
of --database-url. A name that is neither is reported on stderr with both places it was looked for.
Records that cannot be read are reported on stderr as "file:line: reason"; the rest is still shown.
Exit codes: 0 at least one transcript was read; 1 none could be; 2 a usage error.
`;

export const inspectOptions = {
  ...pickCommonOptions("workspace", "data-dir", "database-url", "tools", "json", "color"),
  format: { type: "string" },
  tokenizer: { type: "string" },
  pricing: { type: "string" },
  limit: positiveIntegerFlag,
} as const;

/** `ctxkit inspect`: per-call tokens, prefix reuse, cache breaks, cost and findings of recorded runs. */
export async function inspectCommand(args: string[], io: CliIo): Promise<number> {
  const { flags, positionals, extra } = parseCommandLine(args, inspectOptions);
  if (flags.help) {
    io.stdout.write(inspectHelp);
    return 0;
  }
  if (positionals.length === 0) {
    io.stderr.write(`ctxkit inspect: give one or more transcript files or folders.\n\n${inspectHelp}`);
    return 2;
  }
  const format = parseChoice<TranscriptFormat | "auto">(extra.format, "--format", ["auto", ...TRANSCRIPT_FORMATS], "auto");
  const tokenizer = parseChoice<InspectTokenizer>(extra.tokenizer, "--tokenizer", INSPECT_TOKENIZERS, "qwen3");
  const limit = extra.limit as number | undefined;
  const pricingSpec = typeof extra.pricing === "string" ? extra.pricing : undefined;
  const pricingIsFile = pricingSpec !== undefined && /\.json$|[\\/]/i.test(pricingSpec);
  const pricing = usageErrorUnless(pricingIsFile, () => loadPricingSelection(pricingIsFile ? resolve(io.cwd, pricingSpec) : pricingSpec));
  const tools = flags.tools === undefined ? undefined : loadOpenAIToolsFile(resolve(io.cwd, flags.tools));

  const inputs = await Promise.all(positionals.map((item) => resolveTranscriptInput(item, flags, io)));
  const files = inputs.flatMap((input) => ("file" in input ? [input.file] : []));
  const inspected = await inspectFiles(await expandTranscriptPaths(files), { format, tokenizer, pricing, ...(tools === undefined ? {} : { tools }), ...(limit === undefined ? {} : { limit }) });
  // A name that is neither a file nor a session is reported with the files that cannot be read; the others are still shown.
  const missing: ImportProblem[] = inputs.flatMap((input) => ("reason" in input ? [{ file: input.item, reason: input.reason }] : []));
  const report = { ...inspected, problems: [...missing, ...inspected.problems] };
  for (const problem of report.problems) {
    io.stderr.write(`ctxkit inspect: ${problem.file}${problem.line === undefined ? "" : `:${problem.line}`}: ${problem.reason}\n`);
  }
  if (flags.json) io.stdout.write(`${JSON.stringify(toInspectJson(report), null, 2)}\n`);
  else if (report.transcripts.length > 0) {
    io.stdout.write(formatInspectReport(report, createTerminalStyle(shouldUseColor(io.stdout, flags.color, io.env))));
  }
  if (report.transcripts.length === 0 && report.skippedTranscripts === 0) {
    io.stderr.write("ctxkit inspect: no transcript could be read.\n");
    return 1;
  }
  return 0;
}

/** A catalog name --pricing does not know is a value the flag does not take (exit 2); a pricing file that cannot be read stays exit 1. */
function usageErrorUnless<T>(isFile: boolean, load: () => T): T {
  try {
    return load();
  } catch (error) {
    if (!isFile && error instanceof ConfigError && error.code === "pricing_invalid") throw new ConfigError("usage_invalid", `--pricing: ${error.message}`, { cause: error });
    throw error;
  }
}

function parseChoice<T extends string>(value: unknown, flag: string, choices: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if (typeof value === "string" && (choices as readonly string[]).includes(value)) return value as T;
  throw new ConfigError("usage_invalid", `${flag} must be one of ${choices.join(", ")}; got '${String(value)}'.`);
}

/** A folder stands for its transcripts, as `ctxkit replay` reads them; a missing path is left for inspect to report. */
async function expandTranscriptPaths(paths: string[]): Promise<string[]> {
  const expanded: string[] = [];
  for (const path of paths) {
    const isDirectory = await stat(path).then((info) => info.isDirectory(), () => false);
    // An OpenHands V1 conversation folder (or its events/) is one run, not a folder of transcripts.
    if (!isDirectory || (await findOpenHandsConversationFolder(path)) !== undefined) {
      expanded.push(path);
      continue;
    }
    const names = (await readdir(path)).sort();
    const trajectories = names.filter((name) => name.endsWith(".traj.json"));
    const chosen = trajectories.length > 0 ? trajectories : names.filter((name) => name.endsWith(".json") || name.endsWith(".jsonl"));
    if (chosen.length === 0) throw new TranscriptError(`${path} holds no *.traj.json, *.json or *.jsonl files to inspect.`);
    expanded.push(...chosen.map((name) => join(path, name)));
  }
  return expanded;
}
