import { randomBytes } from "node:crypto";
import { closeSync, constants, openSync, readdirSync, readFileSync, readlinkSync, unlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { holdsLimitMarker, type LimitMarker } from "./limit-marker.js";

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

/** The start of the variable of any call (`hasVariable` matches it at an entry's start). */
const anyMarkerVariable = Buffer.from(`${commandMarkerVariable}=`);
/** The start of the marker descriptor's file name, of any call. */
const markerFilePrefix = "ctxkit-bash-marker-";

const maxCommandCharacters = 80;

/**
 * How far one search for a call's processes goes (`killAll`, all its rounds). The search is
 * synchronous, some 0.1 ms for each process newer than the shell and outside its group and session
 * (its environment and descriptors are read): unbounded, a machine starting processes by the
 * thousand would stall the event loop. A search cut short says so (`lastSearchCut`).
 */
export interface ProcessSearchBudget {
  maxMilliseconds: number;
  /** Most processes whose markers are read (the costly check). */
  maxCheckedProcesses: number;
  /**
   * Entries of /proc always looked at before the deadline counts (default 500): a busy machine that
   * pauses the search must not cut one that has little to do, and so change what a result says.
   */
  entriesBeforeDeadline?: number;
  /** The clock, in milliseconds (default `performance.now`). */
  now?: () => number;
}

/** Some 5,000 checks fit in half a second; a call's own processes are seldom more than a few dozen. */
export const defaultProcessSearchBudget: ProcessSearchBudget = { maxMilliseconds: 500, maxCheckedProcesses: 5_000 };

/** One `killAll`'s progress against its budget, carried through its rounds. */
interface ProcessSearch {
  budget: ProcessSearchBudget;
  deadline: number;
  /** Processes whose markers were read. */
  checked: number;
  /** /proc entries looked at. */
  entries: number;
  now: () => number;
}

/** Why the last search stopped before it had looked at every process. */
export interface SearchCut {
  reason: "time" | "checks";
  /** Processes whose markers were read before it stopped. */
  checked: number;
}

export function createCommandMarker(): string {
  return randomBytes(12).toString("hex");
}

/**
 * A second marker, for processes that clear their environment (`env -i setsid …`): a descriptor the
 * shell gets as fd 3, open on a file whose name holds the marker. Children inherit it through
 * `env -i`, setsid, double forks and reparenting (only a process that closes it loses it), and
 * /proc/<pid>/fd shows its name even after the file is removed. `open` makes the file (returns the
 * descriptor to pass, or undefined where it cannot be made); `spawned` removes it and closes ctxkit's
 * copy once the shell holds its own.
 */
export class MarkerDescriptor {
  readonly fd: number | undefined;
  private readonly file: string;

  constructor(marker: string) {
    this.file = path.join(tmpdir(), `${markerFilePrefix}${marker}`);
    let fd: number | undefined;
    try {
      fd = openSync(this.file, constants.O_CREAT | constants.O_EXCL | constants.O_RDONLY, 0o600);
    } catch {
      fd = undefined; // No writable temporary folder: the group, the session and the variable still find them.
    }
    this.fd = fd;
  }

  spawned(): void {
    if (this.fd === undefined) return;
    try {
      closeSync(this.fd);
      unlinkSync(this.file);
    } catch {
      // Already removed.
    }
  }
}

/**
 * One running command: its process group and session (the shell's pid, spawned `detached`, so in a
 * session and group of its own) and its markers (the variable, and the descriptor of
 * `MarkerDescriptor`). `killAll` ends the group and every process found by any of them, and returns
 * those found running besides the shell itself.
 */
export class CommandProcesses {
  private readonly needle: Buffer;
  private readonly descriptorName: string;
  /** Every process found so far (by pid and start time, so a reused pid is not mistaken for it). */
  private readonly seen = new Map<number, LeftProcess & { started: string }>();
  /** The shell's start time (clock ticks since boot): nothing older can be one of its processes. */
  private readonly shellStarted: number;
  private readonly budget: ProcessSearchBudget;
  private cut: SearchCut | undefined;

  constructor(
    readonly shellPid: number,
    readonly marker: string,
    /** The soft resource limit the shell set (see limit-marker.ts), when it could set one; its creator releases it. */
    private readonly limitMarker?: LimitMarker,
    budget: ProcessSearchBudget = defaultProcessSearchBudget,
  ) {
    this.budget = budget;
    this.needle = Buffer.from(`${commandMarkerVariable}=${marker}\0`);
    this.descriptorName = `${markerFilePrefix}${marker}`;
    this.shellStarted = Number(readStat(shellPid)?.started ?? 0);
    runningCommands.add(this);
    ensureExitHook();
  }

  /**
   * Kills the group and every marked process (a few rounds: one may fork while the last round ran).
   * Each round looks before it kills, so what was running is reported even when the group kill
   * alone would have ended it. The search is bounded by `budget` (the call's, unless ctxkit is exiting).
   */
  killAll(budget: ProcessSearchBudget = this.budget): LeftProcess[] {
    const found = new Map<number, LeftProcess>();
    const now = budget.now ?? (() => performance.now());
    const search: ProcessSearch = { budget, deadline: now() + budget.maxMilliseconds, checked: 0, entries: 0, now };
    this.cut = undefined;
    for (let round = 0; round < 3 && this.cut === undefined; round += 1) {
      const marked = this.findMarked(search).filter((entry) => entry.pid !== this.shellPid);
      killGroup(this.shellPid);
      for (const entry of marked) {
        if (!found.has(entry.pid)) found.set(entry.pid, entry);
        if (!this.seen.has(entry.pid)) this.seen.set(entry.pid, entry);
        killGroup(entry.pid);
        killProcess(entry.pid);
      }
      if (marked.length === 0) break;
    }
    return [...found.values()];
  }

  /**
   * Processes found (at any kill) that still run: a kill that did not take (another user's
   * process, one in uninterruptible sleep). A result never says "killed" of these.
   */
  survivors(): LeftProcess[] {
    return [...this.seen.values()].filter((entry) => startTime(entry.pid) === entry.started).map(({ pid, command }) => ({ pid, command }));
  }

  /**
   * Whether the last `killAll` stopped at its budget: processes it did not look at may be the
   * call's and still running, so a result must not say that none are left.
   */
  get lastSearchCut(): SearchCut | undefined {
    return this.cut;
  }

  /** The command ended (or was killed): it no longer needs the exit hook. */
  release(): void {
    runningCommands.delete(this);
    releaseExitHook();
  }

  /**
   * Live processes of the call: in its group or session, or marked (`isMarked`). Empty where there
   * is no /proc (the group kill still runs).
   */
  private findMarked(search: ProcessSearch): Array<LeftProcess & { started: string }> {
    let names: string[];
    try {
      names = readdirSync("/proc");
    } catch {
      return [];
    }
    const found: Array<LeftProcess & { started: string }> = [];
    for (const name of names) {
      // What was found so far is still killed; the processes not looked at are said to be.
      search.entries += 1;
      if (search.entries > (search.budget.entriesBeforeDeadline ?? 500) && search.now() > search.deadline) {
        this.cut = { reason: "time", checked: search.checked };
        break;
      }
      if (!/^\d+$/.test(name)) continue;
      const pid = Number(name);
      if (pid === process.pid) continue;
      const stat = readStat(pid);
      if (stat === undefined || stat.state === "Z") continue; // Gone meanwhile, or already dead.
      // Started before the shell: not the call's (and its descriptors need not be read, the costly part).
      if (Number(stat.started) < this.shellStarted) continue;
      const inGroup = stat.group === this.shellPid || stat.session === this.shellPid;
      if (!inGroup) {
        if (search.checked >= search.budget.maxCheckedProcesses) {
          this.cut = { reason: "checks", checked: search.checked };
          break;
        }
        search.checked += 1;
      }
      if (inGroup || this.isMarked(pid)) found.push({ pid, command: commandLine(pid), started: stat.started });
    }
    return found;
  }

  /**
   * Carries this call's variable or descriptor, or else its resource limit and no other call's
   * variable or descriptor: the limit's value is one of 65,536, which another ctxkit's call may draw
   * too, while the variable and the descriptor name one call for certain.
   */
  private isMarked(pid: number): boolean {
    const variable = this.variableMark(pid);
    if (variable === "ours") return true;
    const descriptor = this.descriptorMark(pid);
    if (descriptor === "ours") return true;
    return variable === "none" && descriptor === "none" && this.limitMarker !== undefined && holdsLimitMarker(pid, this.limitMarker);
  }

  private variableMark(pid: number): Mark {
    let environment: Buffer;
    try {
      environment = readFileSync(`/proc/${pid}/environ`);
    } catch {
      return "none"; // Gone meanwhile, or another user's.
    }
    if (hasVariable(environment, this.needle)) return "ours";
    return hasVariable(environment, anyMarkerVariable) ? "another call's" : "none";
  }

  private descriptorMark(pid: number): Mark {
    let descriptors: string[];
    try {
      descriptors = readdirSync(`/proc/${pid}/fd`);
    } catch {
      return "none";
    }
    let mark: Mark = "none";
    for (const descriptor of descriptors) {
      try {
        const target = readlinkSync(`/proc/${pid}/fd/${descriptor}`);
        if (target.includes(this.descriptorName)) return "ours";
        if (target.includes(markerFilePrefix)) mark = "another call's";
      } catch {
        // Closed meanwhile.
      }
    }
    return mark;
  }
}

/** Which call's marker a process carries (of one kind: the variable, or the descriptor). */
type Mark = "ours" | "another call's" | "none";

/** Whether `environ` (NUL-separated) holds an entry that starts with `needle` (`NAME=value\0`: exactly that entry). */
function hasVariable(environment: Buffer, needle: Buffer): boolean {
  if (environment.subarray(0, needle.length).equals(needle)) return true;
  return environment.includes(Buffer.concat([Buffer.of(0), needle]));
}

interface ProcessStat {
  state: string;
  group: number;
  session: number;
  /** Start time in clock ticks since boot: with the pid, names one process (pids are reused). */
  started: string;
}

function readStat(pid: number): ProcessStat | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // "pid (comm) S ppid pgrp session … starttime(22nd)": the fields follow the last ")" (comm may
    // itself hold parentheses and spaces).
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return { state: fields[0] ?? "", group: Number(fields[2]), session: Number(fields[3]), started: fields[19] ?? "" };
  } catch {
    return undefined;
  }
}

/** The start time of a live (not zombie) process, or undefined when it is gone. */
function startTime(pid: number): string | undefined {
  const stat = readStat(pid);
  return stat === undefined || stat.state === "Z" ? undefined : stat.started;
}

/**
 * A process's command line, shortened, for a result's note. It reads empty for a moment in the middle
 * of an exec (2 of 300 reads right after a fork), when the search often meets a background job, and
 * for a zombie: then the program's name, in brackets as `ps` shows it.
 */
export function commandLine(pid: number): string {
  try {
    const text = readFileSync(`/proc/${pid}/cmdline`).toString("utf8").split("\0").filter((part) => part !== "").join(" ");
    if (text === "") return programName(pid);
    return text.length > maxCommandCharacters ? `${text.slice(0, maxCommandCharacters - 1)}…` : text;
  } catch {
    return "(unknown)";
  }
}

function programName(pid: number): string {
  try {
    const name = readFileSync(`/proc/${pid}/comm`, "utf8").trim();
    return name === "" ? "(unknown)" : `[${name}]`;
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
/** ctxkit is ending: no event loop is left to keep free, and a process the search missed now would outlive it. */
const searchAtExit: ProcessSearchBudget = { maxMilliseconds: Number.POSITIVE_INFINITY, maxCheckedProcesses: Number.POSITIVE_INFINITY };
/**
 * Kills every running command's processes. The exit hook calls it; the CLI's SIGTERM and SIGHUP
 * handlers call it too (a process killed by a signal emits no `exit`, and the commands' sessions
 * are not the terminal's, so a closed terminal does not reach them).
 */
export const killRunningCommands = (): void => {
  for (const command of runningCommands) command.killAll(searchAtExit);
};

// Hooked while a command runs and unhooked when the last one ends: a library in a long-lived process
// (or a test that runs the CLI in-process) must not collect exit listeners.
function ensureExitHook(): void {
  if (runningCommands.size === 1) process.once("exit", killRunningCommands);
}

function releaseExitHook(): void {
  if (runningCommands.size === 0) process.removeListener("exit", killRunningCommands);
}

/** The line a bash result ends with when processes the call started could not be killed. */
export function describeSurvivors(survivors: readonly LeftProcess[]): string | undefined {
  if (survivors.length === 0) return undefined;
  const shown = survivors.slice(0, 5).map((entry) => `${entry.pid} ${entry.command}`);
  const more = survivors.length > shown.length ? `, and ${survivors.length - shown.length} more` : "";
  return `[${survivors.length} process${survivors.length === 1 ? "" : "es"} the command started could not be killed and ${survivors.length === 1 ? "is" : "are"} still running: ${shown.join("; ")}${more}.]`;
}

/** The line a bash result ends with when the last search for its processes stopped at its budget. */
export function describeSearchCut(cut: SearchCut | undefined, budget: ProcessSearchBudget = defaultProcessSearchBudget): string | undefined {
  if (cut === undefined) return undefined;
  // A time cut may come from a busy machine pausing a short search: it must not blame a crowd of processes.
  const limit =
    cut.reason === "time"
      ? `after ${budget.maxMilliseconds} ms, ${cut.checked} processes checked (the machine is busy or runs many processes)`
      : `at its limit of ${budget.maxCheckedProcesses} processes checked (the machine runs many processes started after the command)`;
  return (
    `[The search for processes the command left running stopped ${limit}, so some it started may still be running ` +
    "unnoticed; check with `ps -eo pid,etime,args` and end them with kill.]"
  );
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
