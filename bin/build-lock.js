// CommonJS (bin/package.json). An exclusive lock for building dist/ in a clone: several `ctxkit`
// processes started at once (a shell loop, a test suite) must not build over each other — one
// builds, the others wait for it and then find dist/ fresh.
"use strict";
const { closeSync, linkSync, mkdirSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeSync } = require("node:fs");
const { dirname } = require("node:path");

// A lock file with no pid yet is one being written; only an old one is abandoned.
const unwrittenLockGraceMs = 10_000;
const pollMs = 50;

/** Blocks this thread for `ms` (start-up code is synchronous; nothing else runs meanwhile). */
function sleep(ms) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return error.code === "EPERM";
  }
}

function readLock(path) {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined; // released meanwhile
  }
}

/** True when the lock holding `text` was left by a process that ended without releasing it. */
function isStale(path, text) {
  const pid = Number.parseInt(text, 10);
  if (Number.isInteger(pid) && pid > 0) return !isAlive(pid);
  const stats = statSync(path, { throwIfNoEntry: false });
  return stats !== undefined && Date.now() - stats.mtimeMs > unwrittenLockGraceMs;
}

/**
 * Runs `build` while holding the lock file `path` (created with O_EXCL, holding this pid). While
 * another live process holds it, waits; a lock whose process has died is taken over. `build` is
 * called after the lock is taken, so it re-checks what still needs building: often nothing, as the
 * process waited for was building the same thing.
 */
function withBuildLock(path, build) {
  mkdirSync(dirname(path), { recursive: true });
  for (;;) {
    let descriptor;
    try {
      descriptor = openSync(path, "wx");
    } catch (error) {
      if (error.code !== "EEXIST") throw error;
      const text = readLock(path);
      if (text !== undefined && isStale(path, text)) {
        // Moved aside under a name of our own, so two waiters that both found it stale cannot
        // remove the lock a third one has taken since: what was moved is checked to be the stale one.
        const aside = `${path}.stale-${process.pid}`;
        try {
          renameSync(path, aside);
        } catch {
          continue; // another waiter moved it first
        }
        // Another's fresh lock: put back unless a newer one exists (link does not overwrite).
        if (readLock(aside) !== text) try { linkSync(aside, path); } catch { /* a newer lock holds */ }
        unlinkSync(aside);
        continue;
      }
      sleep(pollMs);
      continue;
    }
    try {
      writeSync(descriptor, String(process.pid));
    } finally {
      closeSync(descriptor);
    }
    try {
      return build();
    } finally {
      try {
        unlinkSync(path);
      } catch {
        // Already gone (taken over as stale by a waiter after a very long build): nothing to release.
      }
    }
  }
}

module.exports = { withBuildLock };
