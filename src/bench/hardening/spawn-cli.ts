import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

/** The package's own `ctxkit` binary (dist/bench/hardening/ → bin/). */
export const ctxkitBinary = fileURLToPath(new URL("../../../bin/ctxkit.js", import.meta.url));

export interface CliOutcome {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  durationMs: number;
  /** Still running at `timeoutMs`: killed by the harness (a freeze). */
  timedOut: boolean;
}

export interface SpawnCliOptions {
  cwd: string;
  /** Killed with SIGKILL and reported as `timedOut` when still running then. */
  timeoutMs: number;
  /** SIGKILL the process when this resolves (a crash at a moment the caller picks, e.g. after its first model call); a rejection kills nothing. */
  killWhen?: Promise<unknown>;
  env?: Record<string, string>;
}

/** Runs the real `ctxkit` command in a child process with a clean environment (HOME in the workspace). */
export function spawnCli(args: readonly string[], options: SpawnCliOptions): Promise<CliOutcome> {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(process.execPath, [ctxkitBinary, ...args], {
      cwd: options.cwd,
      env: { PATH: process.env.PATH ?? "", HOME: options.cwd, XDG_CONFIG_HOME: `${options.cwd}/.config`, NO_COLOR: "1", ...options.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, options.timeoutMs);
    let closed = false;
    // A killWhen that rejects (its wait cancelled once the run ended) kills nothing.
    options.killWhen?.then(
      () => {
        if (!closed) child.kill("SIGKILL");
      },
      () => undefined,
    );
    child.on("close", (code, signal) => {
      closed = true;
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, durationMs: performance.now() - started, timedOut });
    });
  });
}

/** An uncaught error: a stack trace on stderr, or an exit code outside the CLI's own (0 ok, 1 failed, 2 usage, 130 interrupted). */
export function isCliCrash(outcome: CliOutcome): boolean {
  if (/^\s+at .+:\d+:\d+\)?$/m.test(outcome.stderr)) return true;
  return outcome.signal === null && outcome.code !== null && ![0, 1, 2, 130].includes(outcome.code);
}
