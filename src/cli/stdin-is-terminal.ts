import { fstatSync, statSync } from "node:fs";
import { createLazyRequire } from "../types/lazy-require.js";

// node:tty loads node:net (some 5 ms at a start): required only when a stat cannot tell.
const requireFromHere = createLazyRequire(import.meta.url);

/**
 * Whether this process's stdin (fd 0) is a terminal — what `process.stdin.isTTY` reports, without
 * making process.stdin (a stream, some milliseconds) for a run that asks nothing. A pipe, a file or a
 * socket is no terminal, nor is /dev/null (cron, `< /dev/null`, a parent that ignores the child's
 * stdin): a stat tells, as libuv's own check starts with one. Only another character device is asked
 * of node:tty.
 */
export function stdinIsTerminal(): boolean {
  try {
    const stdin = fstatSync(0);
    if (!stdin.isCharacterDevice()) return false;
    if (stdin.rdev === statSync("/dev/null").rdev) return false;
  } catch {
    // No fd 0 (isatty says false), or no /dev/null (Windows): node:tty decides.
  }
  return (requireFromHere("node:tty") as typeof import("node:tty")).isatty(0);
}
