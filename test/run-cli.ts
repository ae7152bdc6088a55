import { PassThrough, Writable } from "node:stream";
import { StringDecoder } from "node:string_decoder";
import { main } from "../src/cli/main.js";
import type { CliIo } from "../src/cli/cli-io.js";

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export type CliInput = Array<string | { line: string; waitFor: string }>;

export interface CliRunOptions {
  cwd: string;
  env?: Record<string, string>;
  input?: CliInput;
  timeoutMs?: number;
  /**
   * stdout and stderr say they are a 100×40 terminal (isTTY, columns, rows), as on a person's
   * screen; stdin stays a pipe. For output that only a terminal gets (progress bars, colour).
   */
  terminal?: boolean;
}

/** The environment a run sees: only PATH from the test process, HOME and the config folder inside the workspace, no colour. */
export function cliEnvironment(cwd: string, env: Record<string, string> = {}): Record<string, string> {
  return { PATH: process.env.PATH ?? "", HOME: cwd, XDG_CONFIG_HOME: `${cwd}/.config`, NO_COLOR: "1", ...env };
}

/**
 * Runs the real CLI — `main(argv, io)` of src/cli/main.ts — in this process, with its own stdin,
 * stdout, stderr, environment and working directory (no new Node process: a run costs
 * milliseconds, not the second a `node bin/ctxkit.js` start-up takes). `input` lines are written to
 * stdin one by one, each after the previous has been read: `waitFor` holds a line back until stdout
 * shows that text. What the binary adds around `main` (an unexpected error becomes one line and
 * exit code 1) is done here too; what only a process has (signals, EPIPE, a terminal, the exit of
 * the process) is tested with `runCliProcess` from test/e2e/run-cli-process.ts.
 */
export async function runCli(args: string[], options: CliRunOptions): Promise<CliRun> {
  let stdout = "";
  let stderr = "";
  const stdin = new PassThrough();
  const pending = [...(options.input ?? [])];
  let inputEnded = false;
  // Deferred to a later turn, as a pipe delivers it: the command finishes the write that showed the text first.
  let feedScheduled = false;
  const feed = () => {
    feedScheduled = false;
    while (pending.length > 0) {
      const next = pending[0]!;
      if (typeof next !== "string" && !stdout.includes(next.waitFor)) return;
      pending.shift();
      stdin.write(`${typeof next === "string" ? next : next.line}\n`);
    }
    if (!inputEnded) {
      inputEnded = true;
      stdin.end();
    }
  };
  const scheduleFeed = () => {
    if (feedScheduled || inputEnded) return;
    feedScheduled = true;
    setImmediate(feed);
  };
  const io: CliIo = {
    stdin,
    stdout: capture((text) => {
      stdout += text;
      scheduleFeed();
    }, options.terminal === true),
    stderr: capture((text) => (stderr += text), options.terminal === true),
    env: cliEnvironment(options.cwd, { ...(options.terminal === true ? { TERM: "xterm-256color", NO_COLOR: "" } : {}), ...options.env }),
    cwd: options.cwd,
  };
  feed();
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`ctxkit ${args.join(" ")} timed out.\nstdout:\n${stdout}\nstderr:\n${stderr}`)), options.timeoutMs ?? 20_000);
  });
  try {
    const code = await Promise.race([
      main(args, io).catch((error: unknown) => {
        // As bin/ctxkit.js does with an error main did not turn into a sentence.
        io.stderr.write(`ctxkit: ${error instanceof Error ? error.message : String(error)}\n`);
        return 1;
      }),
      timedOut,
    ]);
    return { code, stdout, stderr };
  } finally {
    clearTimeout(timer);
    if (!inputEnded) {
      inputEnded = true;
      stdin.end();
    }
  }
}

function capture(append: (text: string) => void, terminal: boolean): CliIo["stdout"] {
  const decoder = new StringDecoder("utf8");
  const stream = new Writable({
    decodeStrings: false,
    write(chunk: Buffer | string, _encoding, done) {
      append(typeof chunk === "string" ? chunk : decoder.write(chunk));
      done();
    },
  });
  if (terminal) Object.assign(stream, { isTTY: true, columns: 100, rows: 40 });
  return stream;
}
