import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";

/** A process a command started that was still running when it was killed. */
export interface LeftProcess {
  pid: number;
  /** Its command line, shortened (what a person needs to recognise it). */
  command: string;
}

/**
 * The environment variable every process of one bash call inherits. A process group does not hold
 * everything a command starts: `setsid sh -c "sleep 26"` opens a session of its own and survives a
 * kill of the group. The variable does follow it (through setsid, double forks and reparenting to
 * init), so on Linux the call's processes are found by it in /proc.
 */
export const commandMarkerVariable = "CTXKIT_BASH_CALL";

const maxCommandCharacters = 80;

export function createCommandMarker(): string {
  return randomBytes(12).toString("hex");
}

/**
 * One running command: its process group (the shell's pid, spawned `detached`, so in a session and
 * group of its own) and its marker. `killAll` ends the group and every marked process, and returns
 * those found running besides the shell itself.
 */
export class CommandProcesses {
  private readonly needle: Buffer;

  constructor(
    readonly shellPid: number,
    readonly marker: string,
  ) {
    this.needle = Buffer.from(`${commandMarkerVariable}=${marker}\0`);
    runningCommands.add(this);
    ensureExitHook();
  }

  /**
   * Kills the group and every marked process (a few rounds: one may fork while the last round ran).
   * Each round looks before it kills, so what was running is reported even when the group kill
   * alone would have ended it.
   */
  killAll(): LeftProcess[] {
    const found = new Map<number, LeftProcess>();
    for (let round = 0; round < 3; round += 1) {
      const marked = this.findMarked().filter((entry) => entry.pid !== this.shellPid);
      killGroup(this.shellPid);
      for (const entry of marked) {
        if (!found.has(entry.pid)) found.set(entry.pid, entry);
        killGroup(entry.pid);
        killProcess(entry.pid);
      }
      if (marked.length === 0) break;
    }
    return [...found.values()];
  }

  /** The command ended (or was killed): it no longer needs the exit hook. */
  release(): void {
    runningCommands.delete(this);
    releaseExitHook();
  }

  /** Live processes carrying the marker; empty where there is no /proc (the group kill still runs). */
  private findMarked(): LeftProcess[] {
    let names: string[];
    try {
      names = readdirSync("/proc");
    } catch {
      return [];
    }
    const found: LeftProcess[] = [];
    for (const name of names) {
      if (!/^\d+$/.test(name)) continue;
      const pid = Number(name);
      if (pid === process.pid) continue;
      let environment: Buffer;
      try {
        environment = readFileSync(`/proc/${pid}/environ`);
      } catch {
        continue; // Gone meanwhile, or another user's.
      }
      if (!hasVariable(environment, this.needle) || isZombie(pid)) continue;
      found.push({ pid, command: commandLine(pid) });
    }
    return found;
  }
}

/** Whether `environ` (NUL-separated) holds exactly this `NAME=value\0` entry. */
function hasVariable(environment: Buffer, needle: Buffer): boolean {
  if (environment.subarray(0, needle.length).equals(needle)) return true;
  return environment.includes(Buffer.concat([Buffer.of(0), needle]));
}

function isZombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // "pid (comm) S …": the state follows the last ")" (comm may itself hold parentheses).
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) === "Z";
  } catch {
    return true;
  }
}

function commandLine(pid: number): string {
  try {
    const text = readFileSync(`/proc/${pid}/cmdline`).toString("utf8").split("\0").filter((part) => part !== "").join(" ");
    return text.length > maxCommandCharacters ? `${text.slice(0, maxCommandCharacters - 1)}…` : text || "(unknown)";
  } catch {
    return "(unknown)";
  }
}

function killGroup(pid: number): void {
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // No such group (already gone, or the process leads none).
  }
}

function killProcess(pid: number): void {
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // Already gone.
  }
}

/** Commands still running: ended when ctxkit itself exits, so none outlives the process that started it. */
const runningCommands = new Set<CommandProcesses>();
const killRunningCommands = (): void => {
  for (const command of runningCommands) command.killAll();
};

// Hooked while a command runs and unhooked when the last one ends: a library in a long-lived process
// (or a test that runs the CLI in-process) must not collect exit listeners.
function ensureExitHook(): void {
  if (runningCommands.size === 1) process.once("exit", killRunningCommands);
}

function releaseExitHook(): void {
  if (runningCommands.size === 0) process.removeListener("exit", killRunningCommands);
}

/** The line a bash result ends with when processes were left: what they were, and that they were killed. */
export function describeLeftProcesses(left: readonly LeftProcess[]): string | undefined {
  if (left.length === 0) return undefined;
  const shown = left.slice(0, 5).map((entry) => `${entry.pid} ${entry.command}`);
  const more = left.length > shown.length ? `, and ${left.length - shown.length} more` : "";
  return (
    `[${left.length} background process${left.length === 1 ? " was" : "es were"} still running when the command ended and ` +
    `${left.length === 1 ? "was" : "were"} killed: ${shown.join("; ")}${more}. Each call ends what it started; ` +
    "run a server or watcher in the foreground with a timeout, or outside ctxkit.]"
  );
}
