import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { basename, dirname, relative, resolve } from "node:path";
import { renameStateToProvince } from "../../../bench/tau/province-addresses.js";
import { replayTauDialogues, type TauReplayReport } from "../../../bench/tau/replay-tau-dialogues.js";
import { tauArmNames, tauReplayArm, type TauArmName } from "../../../bench/tau/tau-arms.js";
import { loadTauDomain } from "../../../bench/tau/tau-domain.js";
import { parseTauTrajectories } from "../../../bench/tau/tau-trajectories.js";
import { CtxkitError } from "../../../types/index.js";
import { parseCommandLine, pickCommonOptions } from "../../cli-options.js";
import type { CliIo } from "../../cli-io.js";
import { createStagedProgressBar } from "../../progress-bar.js";
import { parseTauDomainName, requireExisting, tauCorpusDirectory, tauDomainDirectory } from "./tau-paths.js";
import { benchOutputPath, benchResultsHelp } from "../../bench-output-path.js";
import { makeDirectoryTree } from "../../../types/make-directory-tree.js";

export const tauReplayHelp = `Usage: ctxkit bench tau replay [--trajectories <file>] [--data-version recorded|current] [--arms <a,b>] [--json]
                             [--domain airline|retail] [--corpus <dir>] [--domain-dir <dir>] [--out <file>]

Replays recorded τ-bench dialogues through the ctxkit loop: the recorded assistant turns as the
model (a replay provider), the recorded user turns as the user, ctxkit's τ-bench tools executing
every call on fresh data. Reports the tool outputs equal to the recorded ones (each difference is
listed) and the rewards equal to the recorded rewards.

Options:
  --trajectories <file>  default <corpus>/tau-bench/trajectories/gpt-4o-airline.json
  --domain <name>        airline or retail (default: retail when the file name says so, else airline)
  --data-version <v>     recorded (default): the data as the published dialogues saw it — before
                         τ-bench commit 404f33e, user addresses said "province" where they now say
                         "state"; current: the data files exactly as they are
  --arms <a,b>           also replay under prompt variants (plumbing only: the recorded turns do not
                         react to a changed prompt): ${tauArmNames.join(", ")}
  --domain-dir <dir>     the domain's folder (default <corpus>/tau-bench/<domain>)
  --corpus <dir>         the folder holding tau-bench/ (default $CTXKIT_CORPUS or ../shared/corpus);
                         without a corpus and without --trajectories the benchmark is skipped (exit 0)
  --json                 print the report as JSON
  --out <file>           where the JSON is written (default bench-results/tau-replay.json)

${benchResultsHelp}`;

/** The flags this benchmark takes (numbers checked by parseCommandLine); its --help lists the same. */
export const tauReplayOptions = { ...pickCommonOptions("json"),
  trajectories: { type: "string" },
  domain: { type: "string" },
  "data-version": { type: "string" },
  arms: { type: "string" },
  "domain-dir": { type: "string" },
  corpus: { type: "string" },
  out: { type: "string" },
} as const;

/** `ctxkit bench tau replay`: recorded dialogues through ctxkit's loop and tools. */
export async function tauReplayCommand(args: string[], io: CliIo): Promise<number> {
  const { flags, extra } = parseCommandLine(args, tauReplayOptions);
  if (flags.help) {
    io.stdout.write(tauReplayHelp);
    return 0;
  }
  const explicit = typeof extra.trajectories === "string";
  const file = explicit ? resolve(io.cwd, extra.trajectories as string) : resolve(tauCorpusDirectory(io, extra.corpus), "trajectories", "gpt-4o-airline.json");
  if (!explicit && !existsSync(file)) {
    io.stderr.write(`ctxkit bench tau replay: skipped — no recorded dialogues at ${file}. Pass --trajectories <file> or --corpus <dir>.\n`);
    return 0;
  }
  requireExisting(file, "trajectories file");
  const domainName = parseTauDomainName(extra.domain, basename(file).includes("retail") ? "retail" : "airline");
  const dataVersion = (extra["data-version"] as string | undefined) ?? "recorded";
  if (dataVersion !== "recorded" && dataVersion !== "current") throw new CtxkitError("usage_invalid", `--data-version must be recorded or current, got '${dataVersion}'.`);
  const arms = typeof extra.arms === "string" ? extra.arms.split(",").map((arm) => arm.trim()).filter(Boolean) : [];
  for (const arm of arms) if (!(tauArmNames as readonly string[]).includes(arm)) throw new CtxkitError("usage_invalid", `Unknown arm '${arm}'. Arms: ${tauArmNames.join(", ")}.`);
  const directory = tauDomainDirectory(io, domainName, extra);
  requireExisting(directory, `τ-bench ${domainName} folder`);

  const started = performance.now();
  const domain = await loadTauDomain(domainName, directory, dataVersion === "recorded" ? { transformRecords: renameStateToProvince } : {});
  const dialogues = parseTauTrajectories(await readFile(file, "utf8"), file);
  const progress = createStagedProgressBar({ stream: io.stderr, enabled: flags.json !== true });
  const onProgress = (label: string) => (done: number, total: number) => progress.update(done, total, label);
  const report = await replayTauDialogues(domain, dialogues, { onProgress: onProgress("tau replay: dialogues") });
  const armReports: Record<string, Pick<TauReplayReport, "dialogues" | "toolCalls" | "outputsMatched" | "rewardsMatched">> = {};
  for (const arm of arms as TauArmName[]) {
    const armReport = await replayTauDialogues(domain, dialogues, { ...tauReplayArm(arm, domain), onProgress: onProgress(`tau replay ${arm}: dialogues`) });
    armReports[arm] = { dialogues: armReport.dialogues, toolCalls: armReport.toolCalls, outputsMatched: armReport.outputsMatched, rewardsMatched: armReport.rewardsMatched };
  }
  progress.stop();
  const seconds = (performance.now() - started) / 1000;
  const json = {
    dialogues: report.dialogues,
    toolCalls: report.toolCalls,
    outputsMatched: report.outputsMatched,
    rewardsMatched: report.rewardsMatched,
    domain: domainName,
    trajectories: file,
    dataVersion,
    differences: report.differences,
    rewardDifferences: report.rewardDifferences,
    ...(arms.length > 0 ? { arms: armReports } : {}),
    seconds: Number(seconds.toFixed(1)),
  };
  const out = benchOutputPath(io, extra.out as string | undefined, "bench-results/tau-replay.json");
  await makeDirectoryTree(dirname(out));
  await writeFile(out, `${JSON.stringify(json, null, 2)}\n`);
  if (flags.json) {
    io.stdout.write(`${JSON.stringify(json)}\n`);
    return 0;
  }
  io.stdout.write(formatReplayReport(report, { domainName, file, dataVersion, seconds }));
  for (const [arm, armReport] of Object.entries(armReports)) {
    io.stdout.write(`arm ${arm.padEnd(22)} outputs ${armReport.outputsMatched}/${armReport.toolCalls}, rewards ${armReport.rewardsMatched}/${armReport.dialogues}\n`);
  }
  io.stdout.write(`JSON written to ${relative(io.cwd, out) || out}\n`);
  return 0;
}

function formatReplayReport(report: TauReplayReport, context: { domainName: string; file: string; dataVersion: string; seconds: number }): string {
  const lines = [
    `τ-bench ${context.domainName} replay of ${context.file} (data: ${context.dataVersion}), ${context.seconds.toFixed(1)} s`,
    `  dialogues                ${report.dialogues}`,
    `  recorded tool calls      ${report.toolCalls}`,
    `  outputs reproduced       ${report.outputsMatched} of ${report.toolCalls}`,
    `  rewards reproduced       ${report.rewardsMatched} of ${report.dialogues}`,
  ];
  if (report.differences.length > 0) {
    lines.push("", "Tool outputs that differ:");
    for (const difference of report.differences) {
      lines.push(`  task ${difference.taskId} trial ${difference.trial} call ${difference.call} ${difference.tool}:`);
      lines.push(`    recorded:   ${clip(difference.recorded)}`, `    reproduced: ${clip(difference.reproduced ?? "(no call)")}`);
    }
  }
  if (report.rewardDifferences.length > 0) {
    lines.push("", "Rewards that differ:");
    for (const entry of report.rewardDifferences) lines.push(`  task ${entry.taskId} trial ${entry.trial}: recorded ${entry.recordedReward}, reproduced ${entry.reward}`);
  }
  return `${lines.join("\n")}\n`;
}

function clip(text: string): string {
  return text.length <= 200 ? text : `${text.slice(0, 197)}… (${text.length} chars)`;
}
