import { readFile, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { runTauActions } from "../../../bench/tau/run-tau-actions.js";
import { dumpPythonJson } from "../../../bench/tau/python/dump-python-json.js";
import { tauDataHash } from "../../../bench/tau/tau-data-hash.js";
import { loadTauDomain } from "../../../bench/tau/tau-domain.js";
import { parseTauTasks } from "../../../bench/tau/tau-task.js";
import { CtxkitError } from "../../../types/index.js";
import { parseCommandLine, pickCommonOptions } from "../../cli-options.js";
import type { CliIo } from "../../cli-io.js";
import { parseTauDomainName, requireExisting, tauDomainDirectory } from "./tau-paths.js";
import { benchExitCodesHelp } from "../../bench-output-path.js";
import { makeDirectoryTree } from "../../../types/make-directory-tree.js";

export const tauActionsHelp = `Usage: ctxkit bench tau actions --domain airline|retail --tasks <tasks.json> [--dump-data <dir>] [--json]
                              [--corpus <dir>] [--domain-dir <dir>]

Runs each task's gold actions on a fresh copy of the domain's data, as τ-bench's environment does,
and prints each action's output and the hash of the final data (the reference's data hash).

Options:
  --domain <name>     airline or retail
  --tasks <file>      tasks in the corpus format [{user_id, instruction, actions: [{name, kwargs}], outputs}]
  --dump-data <dir>   write <dir>/<i>.json: the final data of task i (json.dumps, keys as the data files)
  --domain-dir <dir>  the domain's folder (default <corpus>/tau-bench/<domain>)
  --corpus <dir>      the folder holding tau-bench/ (default $CTXKIT_CORPUS or ../shared/corpus)
  --json              print {"domain", "tasks": [{"index", "outputs", "dataHash"}]}

${benchExitCodesHelp}`;

/** The flags this benchmark takes (numbers checked by parseCommandLine); its --help lists the same. */
export const tauActionsOptions = { ...pickCommonOptions("json"),
  domain: { type: "string" },
  tasks: { type: "string" },
  "dump-data": { type: "string" },
  "domain-dir": { type: "string" },
  corpus: { type: "string" },
} as const;

/** `ctxkit bench tau actions`: the gold actions of a tasks file, their outputs and final data hashes. */
export async function tauActionsCommand(args: string[], io: CliIo): Promise<number> {
  const { flags, extra } = parseCommandLine(args, tauActionsOptions);
  if (flags.help) {
    io.stdout.write(tauActionsHelp);
    return 0;
  }
  const domainName = parseTauDomainName(extra.domain);
  if (typeof extra.tasks !== "string") throw new CtxkitError("usage_invalid", "--tasks <tasks.json> is required (e.g. ../shared/corpus/tau-bench/airline/tasks_test.json).");
  const tasksFile = resolve(io.cwd, extra.tasks);
  requireExisting(tasksFile, "tasks file");
  const directory = tauDomainDirectory(io, domainName, extra);
  requireExisting(directory, `τ-bench ${domainName} folder`);
  const started = performance.now();
  const domain = await loadTauDomain(domainName, directory);
  const tasks = parseTauTasks(await readFile(tasksFile, "utf8"), tasksFile);
  const dumpDirectory = typeof extra["dump-data"] === "string" ? resolve(io.cwd, extra["dump-data"]) : undefined;
  if (dumpDirectory) await makeDirectoryTree(dumpDirectory);

  const results: Array<{ index: number; outputs: string[]; dataHash: string }> = [];
  for (const [index, task] of tasks.entries()) {
    const run = runTauActions(domain, task.actions);
    results.push({ index, outputs: run.outputs, dataHash: tauDataHash(run.data) });
    if (dumpDirectory) await writeFile(join(dumpDirectory, `${index}.json`), dumpPythonJson(run.data));
  }
  const seconds = (performance.now() - started) / 1000;

  if (flags.json) {
    io.stdout.write(`${JSON.stringify({ domain: domainName, tasks: results })}\n`);
    return 0;
  }
  for (const result of results) {
    io.stdout.write(`task ${result.index}: ${result.outputs.length} actions, data ${result.dataHash}\n`);
    for (const [position, output] of result.outputs.entries()) io.stdout.write(`  ${position + 1}. ${preview(output)}\n`);
  }
  const outputs = results.flatMap((result) => result.outputs);
  const errors = outputs.filter((output) => output.startsWith("Error: ")).length;
  const unknown = outputs.filter((output) => output.startsWith("Unknown action ")).length;
  const distinct = new Set(results.map((result) => result.dataHash)).size;
  io.stdout.write(
    `\n${domainName} ${tasksFile}: ${results.length} tasks, ${outputs.length} actions (${errors} Error:, ${unknown} Unknown action), ` +
      `${distinct} distinct data hashes, ${seconds.toFixed(1)} s${dumpDirectory ? `; data written to ${dumpDirectory}` : ""}\n`,
  );
  return 0;
}

function preview(output: string): string {
  const line = output.replaceAll("\n", "\\n");
  return line.length <= 160 ? line : `${line.slice(0, 157)}… (${output.length} chars)`;
}
