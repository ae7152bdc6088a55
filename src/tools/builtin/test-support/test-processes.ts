import { readFile } from "node:fs/promises";

/**
 * Whether a process still runs. A killed orphan stays a zombie until its new parent reaps it, and
 * some container inits never do, so on Linux a zombie counts as gone.
 */
export async function isRunning(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const status = await readFile(`/proc/${pid}/status`, "utf8").catch(() => "");
  return !/^State:\s+Z/m.test(status);
}

/** Whether the process is gone within a second (a kill's signal is delivered, not awaited). */
export async function waitUntilGone(pid: number): Promise<boolean> {
  for (let attempt = 0; attempt < 50 && (await isRunning(pid)); attempt += 1) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return !(await isRunning(pid));
}

/** Kills (SIGKILL) and forgets the processes a test started, so none outlives it whatever it asserted. */
export function killStartedProcesses(started: number[]): void {
  for (const pid of started.splice(0)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Gone already.
    }
  }
}

/**
 * A shell loop that returns once the process `pid` (a shell expression) runs `program` (its command
 * line starts with it): a forked child execs it a moment later. Without /proc it returns at once.
 */
export function untilExecuted(pid: string, program: string): string {
  return `until [ ! -d /proc/self ] || [ "$(head -c ${program.length} /proc/${pid}/cmdline)" = ${program} ]; do :; done`;
}
