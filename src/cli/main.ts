import { closest, distance } from "fastest-levenshtein";
import { isCtxkitError } from "../types/index.js";
import { processIo, type CliIo } from "./cli-io.js";
import { benchCommand, benchHelpFor } from "./commands/bench-command.js";
import { lintCommand, lintHelp } from "./commands/lint-command.js";
import { chatCommand, chatHelp } from "./commands/chat-command.js";
import { configCommand, configHelp } from "./commands/config-command.js";
import { demoCommand, demoHelp } from "./commands/demo-command.js";
import { inspectCommand, inspectHelp } from "./commands/inspect-command.js";
import { replayCommand, replayHelp } from "./commands/replay-command.js";
import { runCommand, runHelp } from "./commands/run-command.js";
import { sessionsCommand, sessionsHelp } from "./commands/sessions-command.js";
import { viewCommand, viewHelp } from "./commands/view-command.js";
import { toCliMessage } from "./cli-error-message.js";
import { skillsCommand, skillsHelp } from "./commands/skills-command.js";

export const mainHelp = `ctxkit — context engineering for LLM agents

Usage: ctxkit <command> [options]

Commands:
  demo                    an offline agent run with a scripted model, then the per-call token table
  run "<task>"            run one agent task in the workspace
  chat                    an interactive agent session
  sessions list|show|rm   the stored sessions of a workspace
  config                  print the resolved configuration (secrets masked)
  skills list|show|lint   the Agent Skills found for the workspace (--skills <dir> adds a folder)
  inspect <file|dir…>     per-call tokens, prefix reuse, cache breaks and cost of a ctxkit session or another agent's transcript
  view <session|file…>    the same, call by call, in a local page in the browser: timeline, prompt, diff, findings
  replay <file|dir…>      replay recorded runs through context policies and compare cost, overflows and recall
  bench <name>            benchmarks: prompt-cache reuse, the status bar, the token estimator, the prefix guard,
                          τ-bench, serving latency, the viewer, disclosure, isolation, prompt injection
                          (ctxkit bench --help lists them)
  lint tools <file>       check tool definitions (descriptions, enums, names, strict-mode schemas)

Options:
  --help, -h              this text; 'ctxkit <command> --help' lists a command's options
  --version, -v           the installed version

Exit codes: 0 done; 1 the task or command failed (the reason is on stderr); 2 a usage error (unknown
option, missing argument); 130 interrupted with Ctrl-C.
`;

type Command = (args: string[], io: CliIo) => Promise<number>;

const commands: Record<string, { run: Command; help: (args: string[]) => string }> = {
  demo: { run: demoCommand, help: () => demoHelp },
  run: { run: runCommand, help: () => runHelp },
  chat: { run: chatCommand, help: () => chatHelp },
  sessions: { run: sessionsCommand, help: () => sessionsHelp },
  skills: { run: skillsCommand, help: () => skillsHelp },
  config: { run: configCommand, help: () => configHelp },
  inspect: { run: inspectCommand, help: () => inspectHelp },
  replay: { run: replayCommand, help: () => replayHelp },
  bench: { run: benchCommand, help: (args) => benchHelpFor(args[0], args[1]) },
  view: { run: viewCommand, help: () => viewHelp },
  lint: { run: lintCommand, help: () => lintHelp },
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
    const nearest = closest(name, Object.keys(commands));
    const suggestion = distance(name, nearest) <= 2 ? ` (did you mean '${nearest}'?)` : "";
    io.stderr.write(`ctxkit: unknown command '${name}'${suggestion}.\n\n${mainHelp}`);
    return 2;
  }
  try {
    return await command.run(rest, io);
  } catch (error) {
    if (isCtxkitError(error) && error.code === "usage_invalid") {
      io.stderr.write(`ctxkit ${name}: ${error.message}\n\n${command.help(rest)}`);
      return 2;
    }
    if (isCtxkitError(error)) {
      io.stderr.write(`ctxkit ${name}: ${toCliMessage(error)}\n`);
      return 1;
    }
    throw error;
  }
}
