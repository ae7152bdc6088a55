import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { currentLockOwner, lockOwnerState, parseLockOwner, serializeLockOwner, type LockOwner } from "./session-lock-owner.js";

const onLinux = existsSync("/proc/self/stat");
/** Field 22 of /proc/<pid>/stat, as the lock records it. */
const startOf = (pid: number): string => readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ")[19]!;

// In a container pids are small and reused: a lock naming only a pid, left by a run killed with SIGKILL,
// would refuse every resume once that pid belonged to another live process.
describe("who holds a JSONL session's lock", () => {
  const me: LockOwner = { pid: 7, host: "box", boot: "boot-1", start: "500", token: "t-now" };

  it("is this process only with this process's token: an earlier process with the same pid left a stale lock", () => {
    expect(lockOwnerState({ ...me }, me)).toBe("this-process");
    expect(lockOwnerState({ ...me, token: "t-before", start: "90" }, me)).toBe("stale");
  });

  it("is held when written on another host, whose processes this one cannot check (only a person can say it is dead)", () => {
    expect(lockOwnerState({ pid: process.ppid, host: "other-container" }, { ...me, pid: process.pid })).toBe("other-host");
    // Even a pid that runs nothing here: it is that host's pid.
    expect(lockOwnerState({ pid: 2 ** 22 + 12345, host: "other-container", boot: "boot-9" }, { ...me, pid: process.pid })).toBe("other-host");
  });

  it("is stale when written on this host before a reboot", () => {
    expect(lockOwnerState({ pid: process.ppid, host: "box", boot: "boot-0" }, { ...me, pid: process.pid })).toBe("stale");
  });

  it("is stale when its pid runs no process", () => {
    expect(lockOwnerState({ pid: 2 ** 22 + 12345, host: "box" }, { ...me, pid: process.pid })).toBe("stale");
  });

  it.skipIf(!onLinux)("is held by a running process only if that process started when the lock says (a reused pid did not)", () => {
    const here = { ...me, pid: process.pid };
    expect(lockOwnerState({ pid: process.ppid, host: "box", boot: "boot-1", start: startOf(process.ppid) }, here)).toBe("running");
    expect(lockOwnerState({ pid: process.ppid, host: "box", boot: "boot-1", start: String(Number(startOf(process.ppid)) + 1) }, here)).toBe("stale");
  });

  it("records this process whole, and reads back what it wrote and a bare pid; anything else is no owner", () => {
    const owner = currentLockOwner();
    expect(owner.pid).toBe(process.pid);
    expect(owner.token).toMatch(/^[0-9a-f-]{36}$/);
    if (onLinux) expect(owner.start).toBe(startOf(process.pid));
    expect(parseLockOwner(serializeLockOwner(owner))).toEqual(owner);
    expect(parseLockOwner("4242\n")).toEqual({ pid: 4242 });
    for (const text of ["", "\n", "{", "null", '{"pid":0}', '{"pid":"12"}', "12 34"]) expect(parseLockOwner(text)).toBeUndefined();
  });
});
