import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { hostname } from "node:os";
import { nodeErrorCode } from "../types/node-error-code.js";

/**
 * Who holds a JSONL session's lock. A process id alone is not enough: in a container pids are small
 * and reused, so the pid of a run killed with SIGKILL soon belongs to another live process, and a
 * lock naming only it would refuse every resume. The owner is recorded with what tells that
 * process apart: the host, the boot, the process's start time (Linux's /proc), and a token of this
 * process, so a reused pid — even our own — is recognised as a stale lock.
 */
export interface LockOwner {
  pid: number;
  host?: string;
  /** /proc/sys/kernel/random/boot_id: a reboot ends every process that held a lock. */
  boot?: string;
  /** Field 22 of /proc/<pid>/stat (clock ticks after boot): a reused pid starts later. */
  start?: string;
  /** Random per process: a lock with our pid but another token was left by an earlier process. */
  token?: string;
}

/** `other-host`: written on another host (a container sharing the volume), whose processes this one cannot check: held. */
export type OwnerState = "this-process" | "running" | "other-host" | "stale";

let self: LockOwner | undefined;

/** This process as a lock owner (computed once: none of it changes while the process runs). */
export function currentLockOwner(): LockOwner {
  self ??= withDefined({ pid: process.pid, host: safeHostname(), boot: readProc("/proc/sys/kernel/random/boot_id")?.trim(), start: processStartTime(process.pid), token: randomUUID() });
  return self;
}

/** The lock file's text: one JSON line (a bare pid, as the first lock files held, is read too). */
export function serializeLockOwner(owner: LockOwner): string {
  return `${JSON.stringify(owner)}\n`;
}

/** The owner a lock file names, or undefined when it is not a lock ctxkit wrote (empty, or anything else). */
export function parseLockOwner(text: string): LockOwner | undefined {
  const trimmed = text.trim();
  if (/^\d+$/.test(trimmed)) return positivePid(Number(trimmed)) ? { pid: Number(trimmed) } : undefined;
  try {
    const value: unknown = JSON.parse(trimmed);
    if (typeof value !== "object" || value === null) return undefined;
    const { pid, host, boot, start, token } = value as Record<string, unknown>;
    if (typeof pid !== "number" || !positivePid(pid)) return undefined;
    return withDefined({ pid, host: stringOrUndefined(host), boot: stringOrUndefined(boot), start: stringOrUndefined(start), token: stringOrUndefined(token) });
  } catch {
    return undefined;
  }
}

/**
 * Whether the lock's owner still holds it. A lock written on another host (another container on a
 * shared volume) is held: this host cannot see that host's processes, and breaking the lock of a
 * writer that still runs interleaves two writers' records. Only a person can say it is dead (see
 * unlockSessionFile). On this host, one written before a reboot is stale, as is one whose pid is
 * not running or now names a process started at another time.
 */
export function lockOwnerState(owner: LockOwner, me: LockOwner = currentLockOwner()): OwnerState {
  if (owner.host !== undefined && me.host !== undefined && owner.host !== me.host) return "other-host";
  if (owner.boot !== undefined && me.boot !== undefined && owner.boot !== me.boot) return "stale";
  if (owner.pid === me.pid) {
    if (owner.token !== undefined && me.token !== undefined) return owner.token === me.token ? "this-process" : "stale";
    return owner.start === undefined || owner.start === me.start ? "this-process" : "stale";
  }
  if (!isRunning(owner.pid)) return "stale";
  const start = owner.start === undefined ? undefined : processStartTime(owner.pid);
  return start !== undefined && start !== owner.start ? "stale" : "running";
}

/** Whether two lock files name the same owner (a release removes only its own lock). */
export function sameLockOwner(left: LockOwner | undefined, right: LockOwner): boolean {
  return left !== undefined && left.pid === right.pid && left.token === right.token && left.start === right.start && left.host === right.host;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return nodeErrorCode(error) === "EPERM";
  }
}

/** Linux only (elsewhere undefined, and the pid is all there is). The name in field 2 may hold spaces and parentheses. */
function processStartTime(pid: number): string | undefined {
  const stat = readProc(`/proc/${pid}/stat`);
  if (stat === undefined) return undefined;
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const start = fields[19]; // field 22; fields[0] is field 3
  return start !== undefined && /^\d+$/.test(start) ? start : undefined;
}

function readProc(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

function safeHostname(): string | undefined {
  try {
    return hostname();
  } catch {
    return undefined;
  }
}

function positivePid(pid: number): boolean {
  return Number.isSafeInteger(pid) && pid > 0;
}

function stringOrUndefined(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

function withDefined(owner: LockOwner): LockOwner {
  return Object.fromEntries(Object.entries(owner).filter(([, value]) => value !== undefined)) as unknown as LockOwner;
}
