import { existsSync } from "node:fs";
import { createStagedProgressBar } from "../../progress-bar.js";
import { benchOutputPath, benchResultsHelp } from "../../bench-output-path.js";
import { writeFile } from "node:fs/promises";
import { dirname, relative, resolve } from "node:path";
import { buildStatusBarPreview, formatRequestListing } from "../../../bench/status-bar/build-status-bar-preview.js";
import { formatCostReport, formatLiveReport } from "../../../bench/status-bar/format-status-bar-reports.js";
import { cacheModels, type CacheModel } from "../../../bench/status-bar/measure-status-bar-cost.js";
import { runStatusBarCostBench } from "../../../bench/status-bar/run-status-bar-cost-bench.js";
import { runStatusBarLiveBench } from "../../../bench/status-bar/run-status-bar-live-bench.js";
import { statusBarArms } from "../../../bench/status-bar/status-bar-arms.js";
import { statusBarTasks } from "../../../bench/status-bar/status-bar-tasks.js";
import { ConfigError } from "../../../types/index.js";
import { parseCommandLine, pickCommonOptions } from "../../cli-options.js";
import { liveModelOptions, liveModelOptionsHelp } from "../../live-model-options.js";
import { positiveIntegerFlag } from "../../number-flags.js";
import type { CliIo } from "../../cli-io.js";
import { createProviderFromConfig } from "../../../config/create-provider-from-config.js";
import { resolveConfig } from "../../resolve-config.js";
import { makeDirectoryTree } from "../../../types/make-directory-tree.js";

export const statusBarBenchHelp = `Usage: ctxkit bench status-bar --preview [--json]
       ctxkit bench status-bar --cost [--corpus <dir>] [--limit <n>] [--cache <kv|prompt>] [--json] [--out <file>]
       ctxkit bench status-bar --model <name> [model options]
                               [--tasks <a,b>] [--arms <a,b>] [--repeats <n>] [--json] [--out <file>]
       ctxkit bench status-bar --offline [--tasks <a,b>] [--arms <a,b>] [--json]

The agent status bar (goal, TODO list, call counts and limits, time; sent as the last message):
what it costs and what it changes.

  --preview   offline: a support-desk request (Xfinity already called 3 times, "call them
              again?") with and without the status bar, and what auto would choose for it
  --cost      the recorded runs of the corpus (swe-gemini, τ-bench) replayed through the status bar
              in replace, append and auto mode: prompt tokens, cached share and prompt cost per run,
              under two cache models (kv: the cache also holds the reply; prompt: requests only)
  live        with --model: the tasks below under every arm (${statusBarArms.join(", ")}),
              scored by deterministic judges; success, iterations and tokens per arm. The status is
              sent in replace mode in every arm (stored statuses would leak times into no-timestamps)
  --offline   the live harness with each task's scripted solution (checks judges and plumbing)

Tasks: ${statusBarTasks.map((task) => `\n  ${task.name.padEnd(13)} ${task.summary}`).join("")}

Options:
  --corpus <dir>   folder holding swe-gemini/ and tau-bench/ (default ../shared/corpus); absent: skipped, exit 0
  --limit <n>      --cost: the first n runs of each corpus part
  --cache <model>  --cost: the cache model of the per-run table (default kv); totals show both
  --tasks, --arms  comma-separated subsets
  --repeats <n>    live: runs per task and arm (default 1)
  --json           print the result as JSON instead of tables
  --out <file>     --cost and live: where the JSON is always written (default
                   bench-results/status-bar-cost.json, live: bench-results/status-bar-live.json);
                   --preview and --offline write no file (--json prints their result)

${liveModelOptionsHelp()}
${benchResultsHelp}`;

/** The flags this benchmark takes (numbers checked by parseCommandLine); its --help lists the same. */
export const statusBarBenchOptions = { ...pickCommonOptions("json"), ...liveModelOptions,
  preview: { type: "boolean" },
  cost: { type: "boolean" },
  offline: { type: "boolean" },
  corpus: { type: "string" },
  limit: positiveIntegerFlag,
  cache: { type: "string" },
  tasks: { type: "string" },
  arms: { type: "string" },
  repeats: positiveIntegerFlag,
  out: { type: "string" },
} as const;

/** `ctxkit bench status-bar`: the preview, the cost replay over the corpus, or the task harness. */
export async function statusBarBenchCommand(args: string[], io: CliIo): Promise<number> {
  const { flags, extra } = parseCommandLine(args, statusBarBenchOptions);
  if (flags.help) {
    io.stdout.write(statusBarBenchHelp);
    return 0;
  }
  const list = (value: unknown) => (typeof value === "string" ? value.split(",").map((item) => item.trim()).filter(Boolean) : undefined);
  const print = (text: string, json: unknown) => io.stdout.write(flags.json ? `${JSON.stringify(json, null, 2)}\n` : text);
  const save = async (json: unknown, fallback: string) => {
    const out = benchOutputPath(io, extra.out as string | undefined, fallback);
    await makeDirectoryTree(dirname(out));
    await writeFile(out, `${JSON.stringify(json, null, 2)}\n`);
    if (!flags.json) io.stdout.write(`JSON written to ${relative(io.cwd, out) || out}\n`);
  };

  if (extra.preview === true) {
    const preview = await buildStatusBarPreview();
    const { promptTokens, autoDecision } = preview;
    print(
      `The request after "Can you call them again to follow up?", with and without the status bar\n\n` +
        `WITHOUT the status bar (${promptTokens.without} tokens):\n${formatRequestListing(preview.withoutStatusBar)}\n\n` +
        `WITH the status bar (${promptTokens.with} tokens; the status is ${promptTokens.status}):\n${formatRequestListing(preview.withStatusBar)}\n\n` +
        `auto would ${autoDecision.mode} here: ${autoDecision.reason}.\n`,
      preview,
    );
    return 0;
  }

  if (extra.cost === true) {
    const cacheModel = (extra.cache ?? "kv") as CacheModel;
    if (!cacheModels.includes(cacheModel)) throw new ConfigError("usage_invalid", `--cache must be one of ${cacheModels.join(", ")}, got '${cacheModel}'.`);
    const corpus = resolve(io.cwd, (extra.corpus as string | undefined) ?? io.env.CTXKIT_CORPUS ?? "../shared/corpus");
    if (!existsSync(corpus)) {
      io.stderr.write(`ctxkit bench status-bar: skipped — no corpus at ${corpus}. Pass --corpus <dir>, the folder that holds swe-gemini/ and tau-bench/.\n`);
      return 0;
    }
    const limit = extra.limit as number | undefined;
    const progress = createStagedProgressBar({ stream: io.stderr, enabled: flags.json !== true });
    const report = await runStatusBarCostBench(corpus, { ...(limit === undefined ? {} : { limit }), onProgress: (part, done, total) => progress.update(done, total, `status-bar cost ${part}: runs`) });
    progress.stop();
    print(formatCostReport(report, cacheModel), report);
    await save(report, "bench-results/status-bar-cost.json");
    return 0;
  }

  const offline = extra.offline === true;
  if (!offline && flags.model === undefined) {
    io.stderr.write(`ctxkit bench status-bar: choose --preview, --cost, --offline, or a live run with --model.\n\n${statusBarBenchHelp}`);
    return 2;
  }
  const provider = offline ? undefined : createProviderFromConfig(resolveConfig({ ...flags, workspace: flags.workspace ?? io.cwd }, io.env, { cwd: io.cwd }));
  const tasks = list(extra.tasks);
  const arms = list(extra.arms);
  const repeats = extra.repeats as number | undefined;
  const showsBar = io.stderr.isTTY === true && flags.json !== true;
  const progress = createStagedProgressBar({ stream: io.stderr, enabled: showsBar });
  const report = await runStatusBarLiveBench({
    ...(provider ? { provider } : {}),
    ...(tasks ? { tasks } : {}),
    ...(arms ? { arms } : {}),
    ...(repeats ? { repeats } : {}),
    // On a terminal the bar shows how far the runs are (the table after it has each result); piped, one line per run.
    onResult: (result) => {
      if (!showsBar) io.stderr.write(`${result.arm} ${result.task}: ${result.success ? "success" : "failure"} (${result.detail}; ${result.iterations} calls)\n`);
    },
    onProgress: (done, total) => progress.update(done, total, "status-bar: runs"),
  });
  progress.stop();
  print(formatLiveReport(report), report);
  if (!offline) await save(report, "bench-results/status-bar-live.json");
  return 0;
}
