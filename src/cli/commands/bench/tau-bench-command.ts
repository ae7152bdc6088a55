import type { CommandOptions } from "../../cli-options.js";
import type { CliIo } from "../../cli-io.js";
import { refuseWordsOf } from "../../refuse-extra-arguments.js";
import { tauActionsCommand, tauActionsHelp, tauActionsOptions } from "./tau-actions-command.js";
import { tauReplayCommand, tauReplayHelp, tauReplayOptions } from "./tau-replay-command.js";
import { tauRunCommand, tauRunHelp, tauRunOptions } from "./tau-run-command.js";

type TauCommand = { run: (args: string[], io: CliIo) => Promise<number>; help: string; options: CommandOptions; summary: string };

/** The τ-bench commands, each with its flags (a test runs every numeric one with a bad value). */
export const tauSubcommands: Record<string, TauCommand> = {
  actions: { run: tauActionsCommand, help: tauActionsHelp, options: tauActionsOptions, summary: "run tasks' gold actions: each output and the final data hash" },
  replay: { run: tauReplayCommand, help: tauReplayHelp, options: tauReplayOptions, summary: "replay recorded dialogues through the ctxkit loop: outputs and rewards reproduced" },
  run: { run: tauRunCommand, help: tauRunHelp, options: tauRunOptions, summary: "a live agent against an LLM user simulator: pass^k, cost, cache share, arms" },
};

export const tauBenchHelp = `Usage: ctxkit bench tau <actions|replay|run> [options]

τ-bench's airline and retail domains inside ctxkit (tools byte-identical to the reference's).

${Object.entries(tauSubcommands)
  .map(([name, command]) => `  ${name.padEnd(8)} ${command.summary}`)
  .join("\n")}

Run 'ctxkit bench tau <command> --help' for its options.
`;

/** The help of `ctxkit bench tau <command>`, or of `ctxkit bench tau` when the command is not one. */
export function tauBenchHelpFor(name: string | undefined): string {
  return (name !== undefined && tauSubcommands[name]?.help) || tauBenchHelp;
}

/** `ctxkit bench tau <command>`. */
export async function tauBenchCommand(args: string[], io: CliIo): Promise<number> {
  const [name, ...rest] = args;
  if (name === undefined || name === "--help" || name === "-h") {
    io.stdout.write(tauBenchHelp);
    return name === undefined ? 2 : 0;
  }
  const command = tauSubcommands[name];
  if (!command) {
    io.stderr.write(`ctxkit bench tau: unknown command '${name}'.\n\n${tauBenchHelp}`);
    return 2;
  }
  refuseWordsOf(rest, command.options, `bench tau ${name}`);
  return command.run(rest, io);
}
