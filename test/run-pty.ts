import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { requireEndToEnd } from "./e2e/end-to-end-only.js";

const bin = resolve("bin/ctxkit.js");

export interface PtySession {
  /** Everything the program wrote, ANSI escapes removed. */
  readonly screen: string;
  write(data: string): void;
  /** Resolves once the output (after `from`, default the start) shows `text`; rejects after the timeout. */
  waitFor(text: string | RegExp, options?: { from?: number; timeoutMs?: number }): Promise<void>;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
  kill(): void;
}

/**
 * Runs the real `ctxkit` binary on a pseudo-terminal made by util-linux `script`, so readline,
 * raw mode, bracketed paste and Ctrl-C behave as they do for a person. Tests wait for output,
 * never for a fixed time, so a loaded machine only makes them slower. End-to-end tests only
 * (test/e2e/): the binary runs the built dist/.
 */
export function runInPty(args: string[], options: { cwd: string; env?: Record<string, string>; answerTrust?: boolean }): PtySession {
  requireEndToEnd("runInPty");
  if (options.answerTrust !== false) recordUntrustedWorkspace(options.cwd);
  const command = `stty cols 100 rows 40 2>/dev/null; exec ${[process.execPath, bin, ...args].map(shellQuote).join(" ")}`;
  const child: ChildProcessWithoutNullStreams = spawn("script", ["-q", "-e", "-f", "-c", command, "/dev/null"], {
    cwd: options.cwd,
    env: { PATH: process.env.PATH ?? "", HOME: options.cwd, XDG_CONFIG_HOME: `${options.cwd}/.config`, TERM: "xterm-256color", ...options.env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let raw = "";
  const watchers = new Set<() => void>();
  const onOutput = (data: Buffer) => {
    raw += data.toString();
    for (const watcher of [...watchers]) watcher();
  };
  child.stdout.on("data", onOutput);
  child.stderr.on("data", onOutput);
  const exited = new Promise<number | null>((resolvePromise) => child.on("close", (code) => resolvePromise(code)));
  const session: PtySession = {
    get screen() {
      return stripAnsi(raw);
    },
    write: (data) => child.stdin.write(data),
    waitFor(text, waitOptions = {}) {
      const matches = () => {
        const seen = stripAnsi(raw).slice(waitOptions.from ?? 0);
        return typeof text === "string" ? seen.includes(text) : text.test(seen);
      };
      return new Promise((resolvePromise, reject) => {
        if (matches()) return resolvePromise();
        const timer = setTimeout(() => {
          watchers.delete(check);
          reject(new Error(`Timed out waiting for ${String(text)}. Screen:\n${stripAnsi(raw)}`));
        }, waitOptions.timeoutMs ?? 30_000);
        const check = () => {
          if (!matches()) return;
          clearTimeout(timer);
          watchers.delete(check);
          resolvePromise();
        };
        watchers.add(check);
      });
    },
    exited,
    kill: () => child.kill("SIGKILL"),
  };
  return session;
}

function shellQuote(value: string): string {
  return `'${value.replace(/'/g, "'\\''")}'`;
}

export function stripAnsi(text: string): string {
  // CSI sequences, OSC sequences, and the bare escapes readline uses to move the cursor.
  return text.replace(/\u001b\[[0-9;?]*[ -/]*[@-~]/g, "").replace(/\u001b\][^\u0007]*\u0007/g, "").replace(/\u001b[=>78]/g, "").replace(/\r/g, "");
}

/**
 * On a terminal, `run` and `chat` ask once whether the workspace is trusted (issue 24). A test that
 * is not about that question has it answered "no" beforehand, in the user's config the run reads
 * (HOME is the test's folder): the workspace stays untrusted, as it was before the question existed.
 * `answerTrust: false` leaves the question to the test.
 */
function recordUntrustedWorkspace(cwd: string): void {
  const file = join(cwd, ".config", "ctxkit", "config.json");
  const current = existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>) : {};
  if (current.trustedWorkspaces !== undefined || current.trustWorkspace !== undefined) return;
  mkdirSync(join(cwd, ".config", "ctxkit"), { recursive: true });
  writeFileSync(file, JSON.stringify({ ...current, trustedWorkspaces: { [resolve(cwd)]: false, [realpathSync(cwd)]: false } }));
}
