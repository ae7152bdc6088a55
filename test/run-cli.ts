import { spawn } from "node:child_process";
import { resolve } from "node:path";

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

const bin = resolve("bin/ctxkit.js");

/**
 * Runs the real `ctxkit` binary as a child process (asynchronously, so loopback servers in the test
 * process keep answering). `input` lines are written to stdin one by one, each after the previous
 * has been read: `waitFor` holds a line back until stdout shows that text.
 */
export function runCli(
  args: string[],
  options: { cwd: string; env?: Record<string, string>; input?: Array<string | { line: string; waitFor: string }>; timeoutMs?: number },
): Promise<CliRun> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [bin, ...args], {
      cwd: options.cwd,
      env: { PATH: process.env.PATH ?? "", HOME: options.cwd, XDG_CONFIG_HOME: `${options.cwd}/.config`, NO_COLOR: "1", ...options.env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    const pending = [...(options.input ?? [])];
    const feed = () => {
      while (pending.length > 0) {
        const next = pending[0]!;
        if (typeof next !== "string" && !stdout.includes(next.waitFor)) return;
        pending.shift();
        child.stdin.write(`${typeof next === "string" ? next : next.line}\n`);
      }
      child.stdin.end();
    };
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`ctxkit ${args.join(" ")} timed out.\nstdout:\n${stdout}\nstderr:\n${stderr}`));
    }, options.timeoutMs ?? 20_000);
    child.stdout.on("data", (data: Buffer) => {
      stdout += data.toString();
      feed();
    });
    child.stderr.on("data", (data: Buffer) => (stderr += data.toString()));
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolvePromise({ code, stdout, stderr });
    });
    feed();
  });
}
