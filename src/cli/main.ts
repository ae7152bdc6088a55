import { isCtxkitError } from "../types/index.js";
import { processIo, type CliIo } from "./cli-io.js";
import { toCliMessage } from "./cli-error-message.js";
import { describeSystemError } from "./describe-system-error.js";

export const mainHelp = `ctxkit — context engineering for LLM agents

Usage: ctxkit <command> [options]

Commands:
  demo                    an offline agent run with a scripted model, then the per-call token table
  run "<task>"            run one agent task in the workspace
  chat                    an interactive agent session
  sessions list|show|rm|unlock   the stored sessions of a workspace
  worker                  run durable agent runs from PostgreSQL (start several, on any hosts)
  submit "<task>"         submit a durable run for the workers (same agent options as run)
  runs list|show|cancel|resume   the durable runs
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
  --help, -h              this text; 'ctxkit <command> --help' (or 'ctxkit help <command>') lists a
                          command's options
  --version, -v           the installed version

Exit codes: 0 done; 1 the task or command failed (the reason is on stderr); 2 a usage error (unknown
option, missing argument, a value an option does not take); 130 interrupted with Ctrl-C.
`;

type Command = (args: string[], io: CliIo) => Promise<number>;
interface LoadedCommand {
  run: Command;
  help: (args: string[]) => string;
}

// Each command's module is imported when that command runs: `ctxkit view` must not first load the
// agent loop, providers, MCP client and markdown highlighter it never uses (most of a second).
const commands: Record<string, () => Promise<LoadedCommand>> = {
  demo: async () => { const { demoCommand, demoHelp } = await import("./commands/demo-command.js"); return { run: demoCommand, help: () => demoHelp }; },
  run: async () => { const { runCommand, runHelp } = await import("./commands/run-command.js"); return { run: runCommand, help: runHelp }; },
  chat: async () => { const { chatCommand, chatHelp } = await import("./commands/chat-command.js"); return { run: chatCommand, help: chatHelp }; },
  sessions: async () => { const { sessionsCommand, sessionsHelp } = await import("./commands/sessions-command.js"); return { run: sessionsCommand, help: () => sessionsHelp }; },
  worker: async () => { const { workerCommand, workerHelp } = await import("./commands/worker-command.js"); return { run: workerCommand, help: () => workerHelp }; },
  submit: async () => { const { submitCommand, submitHelp } = await import("./commands/submit-command.js"); return { run: submitCommand, help: () => submitHelp }; },
  runs: async () => { const { runsCommand, runsHelp } = await import("./commands/runs-command.js"); return { run: runsCommand, help: () => runsHelp }; },
  skills: async () => { const { skillsCommand, skillsHelp } = await import("./commands/skills-command.js"); return { run: skillsCommand, help: () => skillsHelp }; },
  config: async () => { const { configCommand, configHelp } = await import("./commands/config-command.js"); return { run: configCommand, help: configHelp }; },
  inspect: async () => { const { inspectCommand, inspectHelp } = await import("./commands/inspect-command.js"); return { run: inspectCommand, help: () => inspectHelp }; },
  replay: async () => { const { replayCommand, replayHelp } = await import("./commands/replay-command.js"); return { run: replayCommand, help: () => replayHelp }; },
  bench: async () => { const { benchCommand, benchHelpFor } = await import("./commands/bench-command.js"); return { run: benchCommand, help: (args) => benchHelpFor(args[0], args[1]) }; },
  view: async () => { const { viewCommand, viewHelp } = await import("./commands/view-command.js"); return { run: viewCommand, help: () => viewHelp }; },
  lint: async () => { const { lintCommand, lintHelp } = await import("./commands/lint-command.js"); return { run: lintCommand, help: () => lintHelp }; },
};

// Help texts that have a module of their own: `ctxkit run --help` answers without importing the command.
const lightHelp: Record<string, () => Promise<string>> = {
  run: async () => (await import("./commands/run-help.js")).runHelp(),
  chat: async () => (await import("./commands/chat-help.js")).chatHelp(),
};

function asksForHelp(args: readonly string[]): boolean {
  const end = args.indexOf("--");
  return (end === -1 ? args : args.slice(0, end)).some((arg) => arg === "--help" || arg === "-h");
}

/** The CLI entry: returns the exit code; a typed error becomes one clear sentence, not a stack trace. */
export async function main(argv: string[], io: CliIo = processIo()): Promise<number> {
  const [first, ...afterFirst] = argv;
  // `ctxkit help run` is `ctxkit run --help`, as in git and npm; `ctxkit help foo` answers like `ctxkit foo`.
  const helpFor = first === "help" ? afterFirst[0] : undefined;
  const [name, ...rest] = helpFor === undefined ? argv : [helpFor, "--help"];
  if (name === undefined) {
    io.stderr.write(`ctxkit: say which command to run.\n\n${mainHelp}`);
    return 2;
  }
  if (name === "--help" || name === "-h" || name === "help") {
    io.stdout.write(mainHelp);
    return 0;
  }
  if (name === "--version" || name === "-v") {
    const { createRequire } = await import("node:module");
    const packageJson = createRequire(import.meta.url)("../../package.json") as { version: string };
    io.stdout.write(`${packageJson.version}\n`);
    return 0;
  }
  const loadCommand = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (!loadCommand) {
    const { nearestName } = await import("../types/nearest-name.js");
    // `ctxkit --verison`: a mistyped option of ctxkit itself, not of a command.
    const nearest = nearestName(name, name.startsWith("-") ? ["--help", "--version"] : Object.keys(commands), 2);
    const suggestion = nearest === undefined ? "" : ` (did you mean '${nearest}'?)`;
    io.stderr.write(`ctxkit: unknown command '${name}'${suggestion}.\n\n${mainHelp}`);
    return 2;
  }
  const help = Object.hasOwn(lightHelp, name) ? lightHelp[name] : undefined;
  if (help !== undefined && asksForHelp(rest)) {
    io.stdout.write(await help());
    return 0;
  }
  const command = await loadCommand();
  try {
    return await command.run(rest, io);
  } catch (error) {
    if (isCtxkitError(error) && error.code === "usage_invalid") {
      const help = command.help(rest);
      // On a terminal the reason would scroll away above run's 150 lines of help: said again below a long one.
      const again = help.split("\n").length > 40 ? `\nctxkit ${name}: ${error.message}\n` : "";
      io.stderr.write(`ctxkit ${name}: ${error.message}\n\n${help}${again}`);
      return 2;
    }
    if (isCtxkitError(error)) {
      io.stderr.write(`ctxkit ${name}: ${toCliMessage(error)}\n`);
      // A model the pricing catalog does not list was chosen on the command line (--model with --budget-cost,
      // a benchmark's --model): a usage error as the help's exit codes say, though no help is printed for it.
      return error.code === "model_unpriced" ? 2 : 1;
    }
    // A data directory under a file (ENOTDIR), a read-only disk…: the path and the flags, not Node's bare message.
    const systemError = describeSystemError(error);
    if (systemError !== undefined) {
      io.stderr.write(`ctxkit ${name}: ${systemError}\n`);
      return 1;
    }
    throw error;
  }
}
