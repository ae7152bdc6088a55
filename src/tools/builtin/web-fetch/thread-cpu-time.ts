import { readFileSync, readlinkSync } from "node:fs";

/**
 * Where the calling thread's processor time can be read by another thread, or undefined where it cannot
 * (not Linux). On Linux, /proc/thread-self links to "<pid>/task/<tid>", and that task's schedstat starts
 * with the nanoseconds the thread has run on a CPU: a page's conversion is judged by the work it made the
 * reader do, not by the wall clock of a busy machine.
 */
export function ownThreadCpuClock(): string | undefined {
  try {
    return `/proc/${readlinkSync("/proc/thread-self")}/schedstat`;
  } catch {
    return undefined;
  }
}

/** Milliseconds of processor time the thread behind `clock` has used, or undefined if it cannot be read (the thread ended). */
export function readThreadCpuMs(clock: string): number | undefined {
  try {
    const nanoseconds = Number(readFileSync(clock, "latin1").split(" ", 1)[0]);
    return Number.isFinite(nanoseconds) ? nanoseconds / 1e6 : undefined;
  } catch {
    return undefined;
  }
}
