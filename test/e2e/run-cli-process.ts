import { spawn } from "node:child_process";
import { resolve } from "node:path";
import { cliEnvironment, type CliInput, type CliRun } from "../run-cli.js";
import { requireEndToEnd } from "./end-to-end-only.js";

const bin = resolve("bin/ctxkit.js");

/**
 * Runs the built `ctxkit` binary (bin/ctxkit.js over dist/) as a child process, for what only a
 * process has: signals, EPIPE, the exit of the process. Everything else uses the in-process
 * `runCli` of test/run-cli.ts, which takes the same arguments. Asynchronous, so loopback servers
 * in the test process keep answering. `input` lines are written to stdin one by one, each after the previous
 * has been read: `waitFor` holds a line back until stdout shows that text.
 */
export function runCliProcess(
  args: string[],
  options: { cwd: string; env?: Record<string, string>; input?: CliInput; timeoutMs?: number },
): Promise<CliRun> {
  requireEndToEnd("runCliProcess");
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [bin, ...args], {
      cwd: options.cwd,
      env: cliEnvironment(options.cwd, options.env),
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
