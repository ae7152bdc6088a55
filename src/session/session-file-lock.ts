import { open, readFile, rm } from "node:fs/promises";
import { SessionError } from "../types/index.js";
import { PRIVATE_FILE_MODE } from "./private-storage.js";
import type { SessionSink } from "./session-writer.js";

/**
 * One writer per JSONL session, as the Postgres store has: two agents appending to the same file
 * (two `ctxkit chat --continue`, or a program resuming a session it still holds open) interleaved
 * their records, and the next resume refused the file with `session_needs_repair`. The lock is a
 * `<file>.lock` holding the writer's process id, created exclusively; one left by a process that no
 * longer runs (a crash) is taken over. Returns the release, which removes it.
 */
export async function lockSessionFile(filePath: string, id: string): Promise<() => Promise<void>> {
  const lockPath = `${filePath}.lock`;
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const handle = await open(lockPath, "wx", PRIVATE_FILE_MODE);
      try {
        await handle.writeFile(`${process.pid}\n`);
      } finally {
        await handle.close();
      }
      let released = false;
      return async () => {
        if (released) return;
        released = true;
        await rm(lockPath, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const holder = Number.parseInt(await readFile(lockPath, "utf8").catch(() => ""), 10);
    // A holder that no longer runs crashed without closing: its lock is stale (its records are whole, the loader checked them).
    if (Number.isInteger(holder) && holder > 0 && !isRunning(holder)) {
      await rm(lockPath, { force: true });
      continue;
    }
    const who = holder === process.pid ? "another writer in this process" : Number.isInteger(holder) ? `process ${holder}` : "another writer";
    throw new SessionError(
      "session_locked",
      `Session ${id} (${filePath}) is open for writing by ${who}; it was not changed. Close that writer first (session.close()), ` +
        `or, if no ctxkit process uses it any more, delete ${lockPath}.`,
    );
  }
  throw new SessionError("session_locked", `Session ${id} (${filePath}): its lock ${lockPath} keeps coming back; another process is opening it.`);
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The session file as the writer's sink, its lock released when the writer closes it. */
export function releasingLockOnClose(sink: SessionSink, release: () => Promise<void>): SessionSink {
  return {
    write: (buffer, offset, length) => sink.write(buffer, offset, length),
    sync: () => sink.sync(),
    close: async () => {
      try {
        await sink.close();
      } finally {
        await release();
      }
    },
  };
}
