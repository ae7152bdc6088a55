import { stdinIsTerminal } from "./stdin-is-terminal.js";

/** The streams a command talks through; tests pass their own. */
export interface CliIo {
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  cwd: string;
  /**
   * Whether stdin is a terminal, asked without opening it (processIo: src/cli/stdin-is-terminal.ts, what
   * process.stdin.isTTY reports once opened). Absent: `stdin.isTTY` is read.
   */
  stdinIsTerminal?: () => boolean;
}

/** Whether a person types on this command's stdin (a TTY): only then is a question asked. */
export function hasTerminalInput(io: CliIo): boolean {
  return io.stdinIsTerminal !== undefined ? io.stdinIsTerminal() : io.stdin.isTTY === true;
}

export function processIo(): CliIo {
  return {
    // Read on first use: opening process.stdin costs milliseconds that `--help` and most runs (no
    // confirmation to ask) never need.
    get stdin() {
      return process.stdin;
    },
    // A run with nothing to ask (not at a terminal, or nothing undecided) never opens stdin.
    stdinIsTerminal,
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    cwd: process.cwd(),
  };
}
