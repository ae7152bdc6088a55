import { closeSync, openSync, readSync, rmSync } from "node:fs";
import { link, open, rm, unlink } from "node:fs/promises";
import { basename } from "node:path";
import { noteHarnessWrite } from "../security/harness-writes.js";
import { SessionError } from "../types/index.js";
import { PRIVATE_FILE_MODE } from "../types/private-file-modes.js";
import { currentLockOwner, lockOwnerState, parseLockOwner, sameLockOwner, serializeLockOwner, type LockOwner, type OwnerState } from "./session-lock-owner.js";
import type { SessionSink } from "./session-writer.js";
import { nodeErrorCode } from "../types/node-error-code.js";

/** Locks this process holds, removed at `exit` too: the CLI's SIGTERM/SIGHUP handlers and any process.exit() skip close(). */
const held = new Set<string>();
let exitHookInstalled = false;

/**
 * One writer per JSONL session, as the Postgres store has: two agents appending to the same file
 * (two `ctxkit chat --continue`, or a program resuming a session it still holds open) interleaved
 * their records, and the next resume refused the file with `session_needs_repair`. The lock is a
 * `<file>.lock` naming its owner (see LockOwner), created whole or not at all; one whose owner no
 * longer runs (a crash, a SIGKILL, a reused pid) is taken over. Returns the release, which removes it.
 */
export async function lockSessionFile(filePath: string, id: string): Promise<() => Promise<void>> {
  const lockPath = `${filePath}.lock`;
  const me = currentLockOwner();
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const text = serializeLockOwner(me);
    if (await createLockFile(lockPath, text)) {
      // A sub-agent may open its session while a sibling's bash call runs: its lock is ctxkit's, not the command's.
      noteHarnessWrite({ path: lockPath, content: Buffer.from(text, "utf8") });
      return holdLock(lockPath);
    }
    const found = await readLockText(lockPath);
    if (found === undefined) continue; // released in between
    const owner = parseLockOwner(found);
    const state = owner === undefined ? "unknown" : lockOwnerState(owner, me);
    if (state === "stale") {
      // Removed only if it still holds what was judged stale: another process may have taken it over first.
      if ((await readLockText(lockPath)) === found) await removeLock(lockPath);
      continue;
    }
    throw new SessionError("session_locked", lockedMessage(id, filePath, lockPath, describeHolder(owner, state)));
  }
  throw new SessionError("session_locked", lockedMessage(id, filePath, lockPath, "another process, which keeps taking its lock"));
}

function describeHolder(owner: LockOwner | undefined, state: OwnerState | "unknown"): string {
  if (owner === undefined) return "an unknown writer (the lock file is not one ctxkit wrote)";
  if (state === "this-process") return "another writer in this process";
  if (state === "other-host") return `process ${owner.pid} on ${owner.host}, another host, whose processes this one cannot check`;
  return `process ${owner.pid}${owner.host ? ` on ${owner.host}` : ""}`;
}

/** The library's fix (the CLI says it in its own words: toCliMessage). */
function lockedMessage(id: string, filePath: string, lockPath: string, who: string): string {
  return (
    `Session ${id} (${filePath}) is open for writing by ${who}; it was not changed. Close that writer first (session.close()). ` +
    `If no ctxkit writer uses this session any more (the lock outlived a crash), delete ${lockPath} and open the session again; ` +
    `unlockSessionFile(${JSON.stringify(filePath)}, ${JSON.stringify(id)}) from ctxkit deletes it, and keeps a lock whose writer runs on this host.`
  );
}

/**
 * Removes a session's lock that a person says is dead: one from another host (never taken over by
 * itself) or one ctxkit cannot read. A lock whose writer runs on this host is kept (session_locked):
 * that writer is alive. Resolves to the owner the lock named (undefined: there was no lock, or an unreadable one).
 * `filePath` is the session's file (a JSONL store's `path(id)`); `id` names it in messages (default: the file's name).
 */
export async function unlockSessionFile(filePath: string, id: string = basename(filePath, ".jsonl")): Promise<{ removed: boolean; owner?: LockOwner }> {
  const lockPath = `${filePath}.lock`;
  const found = await readLockText(lockPath);
  if (found === undefined) return { removed: false };
  const owner = parseLockOwner(found);
  const state = owner === undefined ? "unknown" : lockOwnerState(owner, currentLockOwner());
  if (state === "running" || state === "this-process") {
    throw new SessionError(
      "session_locked",
      `Session ${id} (${filePath}) is open for writing by ${describeHolder(owner, state)}, which still runs; its lock was kept. Close that writer first (session.close()).`,
    );
  }
  // Only the lock that was judged: a writer may have taken it in between.
  if ((await readLockText(lockPath)) === found) await removeLock(lockPath);
  return { removed: true, ...(owner === undefined ? {} : { owner }) };
}

/**
 * Creates the lock with its owner already in it: a lock file is never seen empty, so a crash or a
 * reader between creating and writing cannot leave one nobody can judge. The text is written to a
 * file of this process's own and linked into place (link fails if the lock exists); where links are
 * not supported, an exclusive create is the fallback.
 */
async function createLockFile(lockPath: string, text: string): Promise<boolean> {
  const draft = `${lockPath}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    await writeExclusive(draft, text);
  } catch {
    return writeExclusive(lockPath, text).then(() => true, refusedIfExists);
  }
  try {
    await link(draft, lockPath);
    return true;
  } catch (error) {
    if (nodeErrorCode(error) === "EEXIST") return false;
    return writeExclusive(lockPath, text).then(() => true, refusedIfExists);
  } finally {
    await unlink(draft).catch(() => undefined);
  }
}

async function writeExclusive(path: string, text: string): Promise<void> {
  const handle = await open(path, "wx", PRIVATE_FILE_MODE);
  try {
    await handle.writeFile(text);
  } finally {
    await handle.close();
  }
}

function refusedIfExists(error: unknown): false {
  if (nodeErrorCode(error) === "EEXIST") return false;
  throw error;
}

function holdLock(lockPath: string): () => Promise<void> {
  held.add(lockPath);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on("exit", releaseHeldLocksAtExit);
  }
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    held.delete(lockPath);
    // Only our own lock: one taken over as stale (it should not be, while we run) belongs to its new owner.
    const owner = parseLockOwner((await readLockText(lockPath)) ?? "");
    if (sameLockOwner(owner, currentLockOwner())) await removeLock(lockPath);
  };
}

async function removeLock(lockPath: string): Promise<void> {
  await rm(lockPath, { force: true });
  noteHarnessWrite({ path: lockPath, removed: true });
}

/** The `exit` listener (exported for its test: a test cannot exit its own process). */
export function releaseHeldLocksAtExit(): void {
  for (const lockPath of held) {
    try {
      if (sameLockOwner(parseLockOwner(readLockTextSync(lockPath)), currentLockOwner())) rmSync(lockPath, { force: true });
    } catch {
      // Exiting: a lock left behind is taken over as stale by the next writer.
    }
  }
  held.clear();
}

/** A lock file is a line of JSON; anything in the folder may have been put there, so only its head is read. */
const MAXIMUM_LOCK_BYTES = 4096;

async function readLockText(lockPath: string): Promise<string | undefined> {
  const handle = await open(lockPath, "r").catch(() => undefined);
  if (handle === undefined) return undefined;
  try {
    const buffer = Buffer.alloc(MAXIMUM_LOCK_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, MAXIMUM_LOCK_BYTES, 0);
    return buffer.subarray(0, bytesRead).toString("utf8");
  } catch {
    return undefined;
  } finally {
    await handle.close();
  }
}

function readLockTextSync(lockPath: string): string {
  const descriptor = openSync(lockPath, "r");
  try {
    const buffer = Buffer.alloc(MAXIMUM_LOCK_BYTES);
    return buffer.subarray(0, readSync(descriptor, buffer, 0, MAXIMUM_LOCK_BYTES, 0)).toString("utf8");
  } finally {
    closeSync(descriptor);
  }
}

/** Runs `change` holding the session's lock (a repair or a removal must not race a writer). */
export async function withSessionFileLock<T>(filePath: string, id: string, change: () => Promise<T>): Promise<T> {
  const release = await lockSessionFile(filePath, id);
  try {
    return await change();
  } finally {
    await release();
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
