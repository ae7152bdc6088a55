import { appendFile, open, readFile, rm, stat, type FileHandle } from "node:fs/promises";
import { repairSessionFile, type SessionRepair, type SessionRepairOptions } from "./repair-session-file.js";
import { makePrivateDirectory } from "./private-storage.js";
import { PRIVATE_FILE_MODE } from "../types/private-file-modes.js";
import { isAbsolute, join, resolve } from "node:path";
import { ConfigError, CtxkitError, SessionError } from "../types/index.js";
import type { LoadedSession } from "./loaded-session.js";
import { isNodeError, readSessionFile } from "./load-session.js";
import { lockSessionFile, releasingLockOnClose, withSessionFileLock } from "./session-file-lock.js";
import { listSessions } from "./list-sessions.js";
import { assertValidSessionId, createSessionId } from "./session-id.js";
import { SESSION_FORMAT, SESSION_FORMAT_VERSION, prefixRecordOf, type HeaderRecord, type PrefixRecord, type SessionPrefix } from "./session-records.js";
import type { SessionSummary } from "./session-summary.js";
import { createSessionWriter, serializeSessionRecord, type SessionWriter } from "./session-writer.js";
import { validateSessionRecord } from "./validate-session-record.js";
import { createFileBlobStore } from "./blob-store.js";
import type { BlobStore } from "../context/compression/blob-store.js";

const FILE_EXTENSION = ".jsonl";
const GENERATED_ID_ATTEMPTS = 5;

export interface SessionStoreOptions {
  /** Where session files live (`<directory>/<id>.jsonl`); created on the first `create()`. */
  directory: string;
  /**
   * Where the sessions' blobs live (the originals of compression's previews and stubs, which
   * `recall` reads back): default `<directory>/blobs`. The CLI keeps them in `<data-dir>/blobs`.
   */
  blobDirectory?: string;
}

export interface CreateSessionOptions {
  /** Default: a new sortable id like `20261130-041502-a1b2c3`. */
  id?: string;
  createdAt: string;
  /** Absolute path of the workspace. */
  workspace?: string;
  prefix: SessionPrefix;
}

/**
 * Where sessions are kept. Two stores implement it (one contract suite runs against both): JSONL files
 * in a directory, the embedded default, and PostgreSQL (`createPostgresSessionStore`), for many
 * workers. Both hold the same records byte for byte, so a session loads, resumes and repairs alike.
 */
export interface SessionStore {
  /** Where the sessions are, for messages: a directory, or a database URL without its password. */
  readonly location: string;
  /** The sessions' blob store: what `assembleAgent` gives the agent, so `recall` of originals works after a restart. */
  readonly blobs?: BlobStore;
  /** Starts a new session (header + prefix, already durable). Refuses an id that exists. */
  create(options: CreateSessionOptions): Promise<SessionWriter>;
  /** Loads and validates a session, removes a torn last line (reported in `warnings`), and appends from there. */
  open(id: string): Promise<SessionWriter>;
  load(id: string): Promise<LoadedSession>;
  /** Every session in the directory, oldest id first; files that cannot be loaded carry `error`. */
  list(): Promise<SessionSummary[]>;
  /** Where one session is, for messages: its file, or a URL naming it in the database. */
  path(id: string): string;
  /** The session's records exactly as its JSONL file holds them (what the repair planner reads). */
  readRecords(id: string): Promise<Uint8Array>;
  /**
   * Rewrites a session without the given 1-based record lines (in `options.order` when given),
   * keeping the original first (beside the file, or in the database's repair table).
   */
  repair(id: string, lines: readonly number[], options?: SessionRepairOptions): Promise<SessionRepair>;
  /** Deletes a session and what was kept beside it; a missing or unreadable id is an error. */
  remove(id: string): Promise<void>;
  /** Releases connections (database stores); the JSONL store holds none. */
  close(): Promise<void>;
}

/** The JSONL store: one append-only file per session in `directory`. */
export interface JsonlSessionStore extends SessionStore {
  readonly directory: string;
}

/** The durable session store: one append-only JSONL file per session in one directory. */
export function createSessionStore(options: SessionStoreOptions): JsonlSessionStore {
  // A missing directory would otherwise surface as node:path's TypeError, naming `paths[0]`.
  if (typeof options?.directory !== "string" || options.directory === "") {
    throw new ConfigError("option_invalid", 'createSessionStore needs `directory`: the folder for the session files, e.g. createSessionStore({ directory: ".ctxkit/sessions" }).');
  }
  if (options.blobDirectory !== undefined && (typeof options.blobDirectory !== "string" || options.blobDirectory === "")) {
    throw new ConfigError("option_invalid", "createSessionStore's `blobDirectory` must be a folder path (or left out for `<directory>/blobs`).");
  }
  const directory = resolve(options.directory);

  const path = (id: string): string => {
    assertValidSessionId(id);
    return join(directory, `${id}${FILE_EXTENSION}`);
  };

  const create = async (createOptions: CreateSessionOptions): Promise<SessionWriter> => {
    const { createdAt, workspace, prefix } = createOptions;
    if (workspace !== undefined && !isAbsolute(workspace)) {
      throw new ConfigError("option_invalid", `The session workspace must be an absolute path, got ${JSON.stringify(workspace)}.`);
    }
    const prefixRecord = prefixRecordOf(prefix);
    const prefixLine = serializeStartRecord(prefixRecord); // before touching the disk: bad input creates no file
    const { id, filePath, handle: file } = await withFolderError(async () => {
      await makePrivateDirectory(directory);
      return createUniqueFile(createOptions.id, createdAt);
    });
    const release = await lockSessionFile(filePath, id).catch(async (error: unknown) => {
      await file.close().catch(() => undefined);
      await rm(filePath, { force: true });
      throw error;
    });
    const handle = releasingLockOnClose(file, release);
    let writer: SessionWriter | undefined;
    try {
      const header: HeaderRecord = { type: "header", format: SESSION_FORMAT, version: SESSION_FORMAT_VERSION, id, createdAt, workspace };
      writer = createSessionWriter({
        handle,
        id,
        path: filePath,
        messageCount: 0,
        requestCount: 0,
        openRunIds: [],
        warnings: [],
        loaded: undefined,
        pendingText: `${serializeStartRecord(header)}${prefixLine}`,
        prefix,
        version: SESSION_FORMAT_VERSION,
      });
      await writer.flush();
      await syncDirectory(directory);
    } catch (error) {
      // A session whose header never reached the disk holds nothing worth keeping.
      await (writer ? writer.close() : handle.close()).catch(() => undefined);
      await rm(filePath, { force: true });
      throw error;
    }
    return writer;
  };

  // The folder is the caller's setting: a file in its way or no permission is said in those terms, not as a bare errno.
  const withFolderError = async <T>(create: () => Promise<T>): Promise<T> => {
    try {
      return await create();
    } catch (error) {
      if (error instanceof CtxkitError || !isNodeError(error) || typeof error.code !== "string") throw error;
      throw new SessionError(
        "session_write_refused",
        `Could not create a session file in ${directory} (${error.code}: ${error.message}). Give createSessionStore a \`directory\` that is a folder this process can write, or can create.`,
        { cause: error },
      );
    }
  };

  const createUniqueFile = async (
    requestedId: string | undefined,
    createdAt: string,
  ): Promise<{ id: string; filePath: string; handle: FileHandle }> => {
    for (let attempt = 0; attempt < GENERATED_ID_ATTEMPTS; attempt += 1) {
      const id = requestedId ?? createSessionId(createdAt);
      const filePath = path(id);
      try {
        // "ax": append mode, and fail if the file exists — refusing an existing id is atomic.
        return { id, filePath, handle: await open(filePath, "ax", PRIVATE_FILE_MODE) };
      } catch (error) {
        if (!isNodeError(error) || error.code !== "EEXIST") throw error;
        if (requestedId !== undefined) {
          throw new SessionError(
            "session_exists",
            `Session ${requestedId} already exists at ${filePath}. Use open() to append to it, or choose another id.`,
          );
        }
      }
    }
    throw new SessionError("session_id_exhausted", `Could not find an unused session id in ${directory} after ${GENERATED_ID_ATTEMPTS} tries.`);
  };

  const openSession = async (id: string): Promise<SessionWriter> => {
    const filePath = path(id);
    const parsed = await readSessionFile(filePath);
    // Before anything changes the file (a torn tail is cut below): a second writer is refused.
    const release = await lockSessionFile(filePath, id);
    const handle = await open(filePath, "a+").catch(async (error: unknown) => {
      await release();
      throw error;
    });
    try {
      const { size } = await handle.stat();
      if (size !== parsed.byteLength) {
        throw new SessionError(
          "session_changed_on_disk",
          `Session ${id} (${filePath}) changed on disk while it was being opened; is another process writing it? Nothing was modified.`,
        );
      }
      if (parsed.intactByteLength < size) {
        // Only the torn tail goes: everything before it was validated above. Its bytes are kept
        // beside the session (appended, so a second repair adds to the first) for a person to look at.
        const torn = Buffer.alloc(size - parsed.intactByteLength);
        await handle.read(torn, 0, torn.length, parsed.intactByteLength);
        await appendFile(`${filePath}.torn`, torn, { mode: PRIVATE_FILE_MODE });
        await handle.truncate(parsed.intactByteLength);
        await handle.sync();
        for (const warning of parsed.session.warnings) {
          if (warning.code === "torn_last_line") warning.message += ` The removed bytes are kept in ${filePath}.torn.`;
        }
      }
    } catch (error) {
      await handle.close();
      await release();
      throw error;
    }
    const { session } = parsed;
    const writer = createSessionWriter({
      handle: releasingLockOnClose(handle, release),
      id,
      path: filePath,
      messageCount: session.messages.length,
      requestCount: session.requests.length,
      openRunIds: session.runs.filter((run) => run.end === undefined).map((run) => run.start.runId),
      warnings: session.warnings,
      loaded: session,
      pendingText: parsed.missingFinalNewline ? "\n" : undefined,
      prefix: session.prefix,
      version: session.header.version,
    });
    if (parsed.missingFinalNewline) {
      await writer.flush().catch(async (error: unknown) => {
        await writer.close().catch(() => undefined);
        throw error;
      });
    }
    return writer;
  };

  const load = async (id: string): Promise<LoadedSession> => (await readSessionFile(path(id))).session;

  const list = (): Promise<SessionSummary[]> => listSessions(directory, FILE_EXTENSION);

  // A repair rewrites the file: under its lock, so no writer appends to the file it replaces. A missing
  // session gets no lock file: the repair reports it as it always did.
  const repair = async (id: string, lines: readonly number[], repairOptions?: SessionRepairOptions): Promise<SessionRepair> => {
    const filePath = path(id);
    const exists = await stat(filePath).then(() => true, () => false);
    if (!exists) return repairSessionFile(filePath, lines, repairOptions);
    return withSessionFileLock(filePath, id, () => repairSessionFile(filePath, lines, repairOptions));
  };

  const blobs = createFileBlobStore(resolve(options.blobDirectory ?? join(directory, "blobs")));
  const remove = async (id: string): Promise<void> => {
    const filePath = path(id);
    // Loading first: only a file that is a ctxkit session is deleted, and a missing id is an error.
    await load(id);
    // Under its lock, as in Postgres: a session a writer holds open is session_locked, not deleted beneath it.
    await withSessionFileLock(filePath, id, async () => {
      await rm(filePath);
      await rm(`${filePath}.torn`, { force: true });
    });
  };

  return {
    directory,
    location: directory,
    blobs,
    create,
    open: openSession,
    load,
    list,
    path,
    readRecords: (id) => readFile(path(id)),
    repair,
    remove,
    close: async () => undefined,
  };
}

export function serializeStartRecord(record: HeaderRecord | PrefixRecord): string {
  const checked = validateSessionRecord(record);
  if (!checked.ok) {
    throw new SessionError("session_record_invalid", `Cannot start a session with an invalid ${record.type} record: ${checked.reason}.`);
  }
  return serializeSessionRecord(record, SESSION_FORMAT_VERSION);
}

/**
 * A new file is only durable once its directory entry is: fsync the directory too. Some platforms
 * (Windows) cannot open a directory for syncing; there the file's own fsync is the best available.
 */
async function syncDirectory(directory: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(directory, "r");
    await handle.sync();
  } catch {
    // Best effort, see above.
  } finally {
    await handle?.close();
  }
}
