import { randomInt } from "node:crypto";
import { readFileSync } from "node:fs";

/**
 * The third marker of a bash call's processes, for what sheds the other two: a daemon that clears
 * its environment, closes every descriptor and calls setsid (`os.closerange` + `os.setsid` + an empty
 * `execve` environment, the usual way to daemonize) keeps no variable and no fd 3, yet it keeps its
 * resource limits, which pass through fork, exec, setsid and reparenting. The shell lowers the soft
 * limit on POSIX message-queue bytes (RLIMIT_MSGQUEUE, which next to no program reads) to a value
 * of its own, by at most 64 KiB; /proc/<pid>/limits shows it. A process that sets that limit again
 * sheds it too, as one that closes fd 3 sheds the descriptor; it is one more marker, not a cage.
 * Another ctxkit's call may draw the same value (1 in 65,536), so a process found only by it is not
 * taken when it carries another call's variable or descriptor (see command-processes.ts).
 */
export interface LimitMarker {
  /** The soft limit in bytes every process of the call starts with. */
  readonly bytes: number;
}

/** One side of a limit as /proc/<pid>/limits shows it: a number of bytes, or "unlimited". */
export interface MessageQueueLimit {
  soft: string;
  hard: string;
}

const limitLine = /^Max msgqueue size\s+(\S+)\s+(\S+)/m;
const largestLowering = 65_536;
/**
 * Where the soft limit is unlimited (so is the hard one), the marker is a value no program can
 * reach either: lowered from the largest integer a JavaScript number holds exactly.
 */
const unlimitedCeiling = Number.MAX_SAFE_INTEGER;

/** Values held by this process's running calls: two calls of one ctxkit never share one. */
const inUse = new Set<number>();

/**
 * A marker below this process's own limit (which the shell inherits), or undefined where there is
 * none to lower (no /proc). `release` it when the call has ended.
 */
export function createLimitMarker(own: MessageQueueLimit | undefined = readMessageQueueLimit("self")): LimitMarker | undefined {
  if (own === undefined) return undefined;
  const ceiling = own.soft === "unlimited" ? unlimitedCeiling : Number(own.soft);
  if (!Number.isSafeInteger(ceiling) || ceiling <= largestLowering || inUse.size >= largestLowering / 2) return undefined;
  let bytes: number;
  do bytes = ceiling - randomInt(1, largestLowering + 1);
  while (inUse.has(bytes));
  inUse.add(bytes);
  return { bytes };
}

export function releaseLimitMarker(marker: LimitMarker): void {
  inUse.delete(marker.bytes);
}

/** How many markers running calls hold (each call releases its own, also when its shell could not start). */
export function limitMarkersInUse(): number {
  return inUse.size;
}

/**
 * The arguments of /bin/bash that run `command` with the marker's limit set, or plain `-c command`
 * without one. The limit is set by a first shell that then execs the command's shell (same pid, so
 * the same session and group), not by a line put before the command: a syntax error in it quotes
 * the command as written, `$?` starts at 0 even where setting the limit fails, and $LINENO is the
 * command's own. That first shell runs in POSIX mode, which reads no BASH_ENV (the command's shell
 * reads it, once, as before), and `builtin` skips any function named ulimit or exec in the environment.
 */
export function bashArguments(command: string, marker: LimitMarker | undefined): string[] {
  if (marker === undefined) return ["-c", command];
  return ["--posix", "-c", `builtin ulimit -S -q ${marker.bytes} 2>/dev/null; builtin exec /bin/bash -c "$1"`, "/bin/bash", command];
}

/** Whether the process runs with exactly this marker's soft limit (false when it is gone or not readable). */
export function holdsLimitMarker(pid: number, marker: LimitMarker): boolean {
  return readMessageQueueLimit(String(pid))?.soft === String(marker.bytes);
}

function readMessageQueueLimit(pid: string): MessageQueueLimit | undefined {
  try {
    const match = limitLine.exec(readFileSync(`/proc/${pid}/limits`, "utf8"));
    return match ? { soft: match[1] as string, hard: match[2] as string } : undefined;
  } catch {
    return undefined; // No /proc (not Linux), or the process is gone.
  }
}
