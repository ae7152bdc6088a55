import { isCtxkitError } from "../types/index.js";
import { processIo, type CliIo } from "./cli-io.js";
import { benchCommand } from "./commands/bench-command.js";
import { chatCommand } from "./commands/chat-command.js";
import { configCommand } from "./commands/config-command.js";
import { demoCommand } from "./commands/demo-command.js";
import { inspectCommand } from "./commands/inspect-command.js";
import { replayCommand } from "./commands/replay-command.js";
import { runCommand } from "./commands/run-command.js";
import { sessionsCommand } from "./commands/sessions-command.js";
import { skillsCommand } from "./commands/skills-command.js";

export const mainHelp = `ctxkit — context engineering for LLM agents

Usage: ctxkit <command> [options]

Commands:
  demo                    an offline agent run with a scripted model, then the per-call token table
  run "<task>"            run one agent task in the workspace
  chat                    an interactive agent session
  sessions list|show <id> the stored sessions of a workspace
  config                  print the resolved configuration (secrets masked)
  skills list|show|lint   the Agent Skills found for the workspace (--skills <dir> adds a folder)
  inspect <file…>         per-call tokens, prefix reuse, cache breaks and cost of a ctxkit session or another agent's transcript
  replay <file…>          replay recorded runs through context policies and compare cost, overflows and recall
  bench <name>            the seed's experiments as benchmarks (kv-cache, status-bar, tokens)

Run 'ctxkit <command> --help' for a command's options.
`;

type Command = (args: string[], io: CliIo) => Promise<number>;

const commands: Record<string, Command> = {
  demo: demoCommand,
  run: runCommand,
  chat: chatCommand,
  sessions: sessionsCommand,
  skills: skillsCommand,
  config: configCommand,
  inspect: inspectCommand,
  replay: replayCommand,
  bench: benchCommand,
};

/** The CLI entry: returns the exit code; a typed error becomes one clear sentence, not a stack trace. */
export async function main(argv: string[], io: CliIo = processIo()): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    io.stdout.write(mainHelp);
    return name === undefined ? 2 : 0;
  }
  if (name === "--version" || name === "-v") {
    const { createRequire } = await import("node:module");
    const packageJson = createRequire(import.meta.url)("../../package.json") as { version: string };
    io.stdout.write(`${packageJson.version}\n`);
    return 0;
  }
  const command = commands[name];
  if (!command) {
    io.stderr.write(`ctxkit: unknown command '${name}'.\n\n${mainHelp}`);
    return 2;
  }
  try {
    return await command(rest, io);
  } catch (error) {
    if (isCtxkitError(error)) {
      io.stderr.write(`ctxkit ${name}: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}
