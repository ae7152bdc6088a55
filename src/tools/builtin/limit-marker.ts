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
 */
export interface LimitMarker {
  /** The soft limit in bytes every process of the call starts with. */
  readonly bytes: number;
  /** Run first in the shell, on the command's own line (line numbers in its errors do not move). */
  readonly shellPrefix: string;
}

const limitLine = /^Max msgqueue size\s+(\S+)\s+(\S+)/m;

/** A marker below this process's own limit (which the shell inherits), or undefined where there is none to lower. */
export function createLimitMarker(): LimitMarker | undefined {
  const own = readMessageQueueLimit("self");
  if (own === undefined) return undefined;
  const ceiling = own.soft === "unlimited" ? (own.hard === "unlimited" ? 819_200 : Number(own.hard)) : Number(own.soft);
  if (!Number.isSafeInteger(ceiling) || ceiling <= 65_537) return undefined;
  const bytes = ceiling - randomInt(1, 65_537);
  return { bytes, shellPrefix: `ulimit -S -q ${bytes} 2>/dev/null; ` };
}

/** Whether the process runs with exactly this marker's soft limit (false when it is gone or not readable). */
export function holdsLimitMarker(pid: number, marker: LimitMarker): boolean {
  return readMessageQueueLimit(String(pid))?.soft === String(marker.bytes);
}

function readMessageQueueLimit(pid: string): { soft: string; hard: string } | undefined {
  try {
    const match = limitLine.exec(readFileSync(`/proc/${pid}/limits`, "utf8"));
    return match ? { soft: match[1] as string, hard: match[2] as string } : undefined;
  } catch {
    return undefined; // No /proc (not Linux), or the process is gone.
  }
}
