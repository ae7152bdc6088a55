import { execFileSync } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { dirname, relative, resolve } from "node:path";
import { runTauBench } from "../../../bench/tau/run-tau-bench.js";
import { tauArmNames, type TauArmName } from "../../../bench/tau/tau-arms.js";
import { loadTauDomain } from "../../../bench/tau/tau-domain.js";
import { parseTauTasks } from "../../../bench/tau/tau-task.js";
import { CtxkitError } from "../../../types/index.js";
import { parseCommandLine, pickCommonOptions } from "../../cli-options.js";
import { liveModelOptions, liveModelOptionsHelp } from "../../live-model-options.js";
import { positiveIntegerFlag } from "../../number-flags.js";
import type { CliIo } from "../../cli-io.js";
import { createProviderFromConfig } from "../../../config/create-provider-from-config.js";
import { resolveConfig } from "../../resolve-config.js";
import { parseTauDomainName, requireExisting, tauDomainDirectory } from "./tau-paths.js";
import { benchOutputPath, benchResultsHelp } from "../../bench-output-path.js";
import { createStagedProgressBar } from "../../progress-bar.js";
import { makeDirectoryTree } from "../../../types/make-directory-tree.js";

export const tauRunHelp = `Usage: ctxkit bench tau run --model <name> --domain airline|retail [--tasks 0-9] [--trials k] [--arms <a,b>]
                          [--user-model <name>] [--split test|dev] [--tasks-file <file>] [--json] [--out <file>]
                          [--temperature <t>] [model options]
                          [--corpus <dir>] [--domain-dir <dir>]

A live τ-bench run: the agent (any ctxkit provider) against an LLM playing the customer from each
task's instruction (τ-bench's method; the user ends with ###STOP###), scored by τ-bench's reward.
Reports pass^k per arm, tokens, the cached share of prompt tokens and the cost, and writes JSON with
a manifest (model, settings, commit, date, prompt hash per arm).

Options:
  --domain <d>       airline or retail (required)
  --tasks <range>    task indexes: 0-9, 3, or 0,4,7 (default 0-9)
  --trials <k>       trials per task (default 1); pass^1..pass^k are reported
  --arms <a,b>       prompt variants to compare (default baseline): ${tauArmNames.join(", ")}
                     (book, airline, 10 tasks: baseline 7/10, trump 6, casual 9, randomized 8,
                     no tool descriptions 9). Offline, check the arms' plumbing with
                     'ctxkit bench tau replay --arms …'
  --user-model <m>   the user simulator's model (default: --model), same provider settings
  --split <s>        test (default) or dev (retail only): <domain>/tasks_<split>.json
  --tasks-file <f>   another tasks file in the corpus format
  --temperature <t>  the agent's and user's temperature (default 0, as τ-bench)
  --corpus <dir>     the folder holding tau-bench/ (default $CTXKIT_CORPUS or ../shared/corpus)
  --domain-dir <dir> the domain's folder (default <corpus>/tau-bench/<domain>)
  --json             print the result as JSON instead of tables
  --out <file>       default bench-results/tau-run.json

${liveModelOptionsHelp()}
${benchResultsHelp}`;

/** The flags this benchmark takes (numbers checked by parseCommandLine); its --help lists the same. */
export const tauRunOptions = { ...pickCommonOptions("json"), ...liveModelOptions,
  domain: { type: "string" },
  tasks: { type: "string" },
  trials: positiveIntegerFlag,
  arms: { type: "string" },
  "user-model": { type: "string" },
  split: { type: "string" },
  "tasks-file": { type: "string" },
  temperature: { type: "string", number: { min: 0, max: 2 } },
  "domain-dir": { type: "string" },
  corpus: { type: "string" },
  out: { type: "string" },
} as const;

/** `ctxkit bench tau run`: live agent × LLM user over τ-bench tasks, per arm. */
export async function tauRunCommand(args: string[], io: CliIo): Promise<number> {
  const { flags, extra } = parseCommandLine(args, tauRunOptions);
  if (flags.help) {
    io.stdout.write(tauRunHelp);
    return 0;
  }
  const domainName = parseTauDomainName(extra.domain);
  const directory = tauDomainDirectory(io, domainName, extra);
  const tasksFile = typeof extra["tasks-file"] === "string" ? resolve(io.cwd, extra["tasks-file"]) : resolve(directory, `tasks_${(extra.split as string | undefined) ?? "test"}.json`);
  requireExisting(directory, `τ-bench ${domainName} folder`);
  requireExisting(tasksFile, "tasks file");
  const arms = (typeof extra.arms === "string" ? extra.arms.split(",").map((arm) => arm.trim()).filter(Boolean) : ["baseline"]) as TauArmName[];
  for (const arm of arms) if (!(tauArmNames as readonly string[]).includes(arm)) throw new CtxkitError("usage_invalid", `Unknown arm '${arm}'. Arms: ${tauArmNames.join(", ")}.`);
  const trials = (extra.trials as number | undefined) ?? 1;
  const temperature = (extra.temperature as number | undefined) ?? 0;

  const config = resolveConfig({ ...flags, workspace: flags.workspace ?? io.cwd }, io.env, { cwd: io.cwd });
  const agentProvider = createProviderFromConfig(config);
  const userModel = (extra["user-model"] as string | undefined) ?? agentProvider.model;
  const userProvider = userModel === agentProvider.model ? agentProvider : createProviderFromConfig(resolveConfig({ ...flags, model: userModel, workspace: flags.workspace ?? io.cwd }, io.env, { cwd: io.cwd }));
  const domain = await loadTauDomain(domainName, directory);
  const tasks = parseTauTasks(await readFile(tasksFile, "utf8"), tasksFile);
  const taskIndices = parseTaskRange((extra.tasks as string | undefined) ?? "0-9", tasks.length);
  const settings = { temperature };

  // On a terminal a bar shows how far the dialogues are (the table after it has each result); piped, one line per dialogue.
  const showsBar = io.stderr.isTTY === true && flags.json !== true;
  const progress = createStagedProgressBar({ stream: io.stderr, enabled: showsBar });
  const total = arms.length * taskIndices.filter((index) => tasks[index] !== undefined).length * trials;
  let done = 0;
  progress.update(done, total, "tau run: dialogues");
  const report = await runTauBench({
    domain, tasks, taskIndices, trials, arms, agentProvider, userProvider, settings,
    onDialogue: (dialogue) => {
      done += 1;
      progress.update(done, total, "tau run: dialogues");
      if (!showsBar) io.stderr.write(`${dialogue.arm} task ${dialogue.task} trial ${dialogue.trial}: reward ${dialogue.reward} (${dialogue.ending}, ${dialogue.modelCalls} calls)\n`);
    },
  }).finally(() => progress.stop());
  const manifest = {
    benchmark: "tau-bench",
    domain: domainName,
    tasksFile,
    tasks: taskIndices,
    trials,
    model: agentProvider.model,
    provider: agentProvider.name,
    userModel,
    settings,
    commit: gitCommit(io.cwd),
    date: new Date().toISOString(),
    promptHashes: Object.fromEntries(report.arms.map((arm) => [arm.arm, arm.promptHash])),
  };
  const json = { manifest, ...report };
  const out = benchOutputPath(io, extra.out as string | undefined, "bench-results/tau-run.json");
  await makeDirectoryTree(dirname(out));
  await writeFile(out, `${JSON.stringify(json, null, 2)}\n`);
  if (flags.json) {
    io.stdout.write(`${JSON.stringify(json)}\n`);
    return 0;
  }
  const header = `${"arm".padEnd(22)} ${"success".padStart(9)} ${Array.from({ length: trials }, (_, index) => `pass^${index + 1}`.padStart(8)).join(" ")} ${"prompt tok".padStart(11)} ${"cached".padStart(7)} ${"cost $".padStart(9)}`;
  const rows = report.arms.map((arm) =>
    `${arm.arm.padEnd(22)} ${`${arm.successes}/${arm.dialogues}`.padStart(9)} ${Object.values(arm.passHatK).map((value) => value.toFixed(3).padStart(8)).join(" ")} ` +
      `${String(arm.usage.inputTokens).padStart(11)} ${`${(arm.cachedShare * 100).toFixed(1)}%`.padStart(7)} ${(arm.cost === null ? "n/a" : arm.cost.toFixed(4)).padStart(9)}`,
  );
  io.stdout.write(`τ-bench ${domainName}, ${agentProvider.model} (user ${userModel}), tasks ${taskIndices.join(",")}, ${trials} trial(s)\n${header}\n${rows.join("\n")}\nJSON written to ${relative(io.cwd, out) || out}\n`);
  return 0;
}

/** `0-9`, `3`, `0,4,7` → indexes, each checked against the number of tasks. */
export function parseTaskRange(text: string, taskCount: number): number[] {
  const indexes: number[] = [];
  for (const part of text.split(",").map((piece) => piece.trim()).filter(Boolean)) {
    const match = /^(\d+)(?:-(\d+))?$/.exec(part);
    if (!match) throw new CtxkitError("usage_invalid", `--tasks takes indexes like 0-9, 3 or 0,4,7; got '${text}'.`);
    const from = Number(match[1]);
    const to = Number(match[2] ?? match[1]);
    for (let index = from; index <= to; index++) {
      if (index >= taskCount) throw new CtxkitError("option_invalid", `--tasks: task ${index} does not exist (the file has ${taskCount} tasks, 0-${taskCount - 1}).`);
      indexes.push(index);
    }
  }
  return indexes;
}

function gitCommit(cwd: string): string | null {
  try {
    return execFileSync("git", ["rev-parse", "HEAD"], { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"], timeout: 5000 }).trim();
  } catch {
    return null;
  }
}
