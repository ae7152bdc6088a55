import { CtxkitError, type Message, type Usage, type UserMessage, SessionError } from "../types/index.js";
import type { LoadedSession, SessionWarning } from "./loaded-session.js";
import { prefixRecordOf, type ContextEditRecord, type RunEndRecord, type RunStartRecord, type SessionPrefix, type SessionRecord } from "./session-records.js";
import { firstChecksumVersion, sealRecord } from "./record-checksum.js";
import { validateSessionRecord } from "./validate-session-record.js";
import { noteHarnessWrite } from "../security/harness-writes.js";

export interface AppendRequestInput {
  /** How many trajectory messages (from the start) the call sent. */
  messageCount: number;
  tail?: UserMessage | null;
  provider: string;
  model: string;
  at: string;
  bodyHash?: string;
  effort?: string;
  cacheLifetimeMs?: number | null;
}

/** A `ContextEdit` record without its type tag, as the writer's caller gives it. */
export type AppendContextEditInput = Omit<ContextEditRecord, "type">;

/** A `RunStart` record without its type tag, as the writer's caller gives it. */
export type AppendRunStartInput = Omit<RunStartRecord, "type">;

/** A `RunEnd` record without its type tag, as the writer's caller gives it. */
export type AppendRunEndInput = Omit<RunEndRecord, "type">;

/**
 * Appends records to one session file. Appends only serialise into memory (cheap enough to call on
 * every event); `flush()` writes them and fsyncs, and the loop calls it before each provider call,
 * so a crash loses at most what happened since the last call started.
 */
export interface SessionWriter {
  readonly id: string;
  readonly path: string;
  /** What loading found when the session was opened (e.g. a torn last line that was then removed). */
  readonly warnings: readonly SessionWarning[];
  /** The session as it was on disk when `open()` read it; undefined for a new session. */
  readonly loaded: LoadedSession | undefined;
  /** Messages in the current context (after context edits), including those loaded. */
  readonly messageCount: number;
  /** Requests recorded so far; the next `appendRequest` returns this number. */
  readonly requestCount: number;
  appendMessage(message: Message): void;
  /** A declared cache break: the stable prefix changes from here on, for `reason`. */
  appendPrefix(prefix: SessionPrefix, reason: string): void;
  /** Appends a prefix record only when `prefix` differs from the one in force (system, tools or model). */
  recordPrefix(prefix: SessionPrefix, reason: string): void;
  /** Records what a model call sent; returns its request index. */
  appendRequest(request: AppendRequestInput): number;
  appendUsage(requestIndex: number, usage: Usage): void;
  /** A declared change of already-sent context (compaction); the replaced originals stay in the file. */
  appendContextEdit(edit: AppendContextEditInput): void;
  appendRunStart(run: AppendRunStartInput): void;
  appendRunEnd(run: AppendRunEndInput): void;
  /** Writes everything appended so far and fsyncs. Concurrent calls run one after another. */
  flush(): Promise<void>;
  /** Flushes, then closes the file. Appending afterwards throws. */
  close(): Promise<void>;
}

/**
 * Where a writer's bytes go: an append-mode file (a `FileHandle` is one), or a database store's
 * writer, which stores whole lines in one transaction per write. `write` may write less than asked
 * (the writer writes the rest next); `sync` makes what was written durable.
 */
export interface SessionSink {
  write(buffer: Buffer, offset: number, length: number): Promise<{ bytesWritten: number }>;
  sync(): Promise<void>;
  close(): Promise<void>;
}

export interface SessionWriterState {
  handle: SessionSink;
  id: string;
  path: string;
  messageCount: number;
  requestCount: number;
  openRunIds: string[];
  warnings: SessionWarning[];
  loaded: LoadedSession | undefined;
  /** Text to write before the first appended record (a repair, or the header of a new file). */
  pendingText?: string;
  /** The prefix in force at the end of the file. */
  prefix: SessionPrefix;
  /** The file's format version: from 4 on, every record is written with its checksum. */
  version: number;
}

export function createSessionWriter(state: SessionWriterState): SessionWriter {
  const { handle, id, path } = state;
  const openRuns = new Set(state.openRunIds);
  let messageCount = state.messageCount;
  let prefixKey = prefixKeyOf(state.prefix);
  let requestCount = state.requestCount;
  let pending: string[] = state.pendingText ? [state.pendingText] : [];
  // Bytes a failed write did not get to disk; they go first next time so a half-written line is completed.
  let unwritten: Buffer | undefined;
  let unsynced = false;
  let queue: Promise<void> = Promise.resolve();
  let closing: Promise<void> | undefined;

  const misuse = (reason: string): CtxkitError =>
    new SessionError("session_write_refused", `Refusing to write to session ${id} (${path}): ${reason}. Nothing was written.`);

  const append = (record: SessionRecord): void => {
    if (closing) throw misuse("the writer is closed; open() the session again to append");
    // Checked on the way in too, so the writer can never produce a file the loader would reject.
    const checked = validateSessionRecord(record);
    if (!checked.ok) throw misuse(`invalid ${record.type} record (${checked.reason})`);
    pending.push(serializeSessionRecord(record, state.version));
  };

  const writePending = async (): Promise<void> => {
    if (pending.length > 0) {
      const fresh = Buffer.from(pending.join(""), "utf8");
      pending = [];
      unwritten = unwritten ? Buffer.concat([unwritten, fresh]) : fresh;
    }
    if (unwritten) {
      const bytes = unwritten;
      let offset = 0;
      unsynced = true;
      try {
        // The file is open in append mode, so every write lands at the end whatever the position.
        while (offset < bytes.length) {
          const { bytesWritten } = await handle.write(bytes, offset, bytes.length - offset);
          // The guard around a running bash call keeps these records instead of undoing them as the command's.
          noteHarnessWrite({ path, appended: bytes.subarray(offset, offset + bytesWritten) });
          offset += bytesWritten;
        }
      } finally {
        unwritten = offset < bytes.length ? bytes.subarray(offset) : undefined;
      }
    }
    if (unsynced) {
      await handle.sync();
      unsynced = false;
    }
  };

  const flush = (): Promise<void> => {
    const run = queue.then(writePending);
    // A failed flush must not wedge later ones; its error still reaches its own caller.
    queue = run.catch(() => undefined);
    return run;
  };

  return {
    id,
    path,
    warnings: state.warnings,
    loaded: state.loaded,
    get messageCount() {
      return messageCount;
    },
    get requestCount() {
      return requestCount;
    },
    appendMessage(message) {
      append({ type: "message", message });
      messageCount += 1;
    },
    appendPrefix(prefix, reason) {
      if (typeof reason !== "string" || reason.trim() === "") throw misuse("a prefix change needs a reason");
      append(prefixRecordOf(prefix, reason));
      prefixKey = prefixKeyOf(prefix);
    },
    recordPrefix(prefix, reason) {
      if (prefixKeyOf(prefix) !== prefixKey) this.appendPrefix(prefix, reason);
    },
    appendRequest(request) {
      if (request.messageCount > messageCount) {
        throw misuse(`the request sent ${request.messageCount} messages but only ${messageCount} were appended`);
      }
      const index = requestCount;
      const { messageCount: sent, tail = null, provider, model, at, bodyHash, effort, cacheLifetimeMs } = request;
      append({
        type: "request", index, messageCount: sent, tail, provider, model, at,
        ...(bodyHash ? { bodyHash } : {}), ...(effort ? { effort } : {}), ...(cacheLifetimeMs === undefined ? {} : { cacheLifetimeMs }),
      });
      requestCount += 1;
      return index;
    },
    appendContextEdit(edit) {
      if (state.loaded && state.loaded.header.version < 2) {
        throw misuse("this session is in format version 1, which has no context edits; start a new session to compact");
      }
      if (!(edit.start >= 0 && edit.start <= edit.end && edit.end <= messageCount)) {
        throw misuse(`a context edit of messages ${edit.start}–${edit.end}, but the context has ${messageCount}`);
      }
      const { start, end, messages, reason, at } = edit;
      append({ type: "context_edit", start, end, messages, reason, at });
      messageCount += messages.length - (end - start);
    },
    appendUsage(requestIndex, usage) {
      if (!Number.isSafeInteger(requestIndex) || requestIndex < 0 || requestIndex >= requestCount) {
        throw misuse(`usage for request ${requestIndex}, but only ${requestCount} requests were appended`);
      }
      append({ type: "usage", request: requestIndex, usage });
    },
    appendRunStart(run) {
      append({ type: "run_start", runId: run.runId, input: run.input, at: run.at, ...(run.budget ? { budget: run.budget } : {}) });
      openRuns.add(run.runId);
    },
    appendRunEnd(run) {
      if (!openRuns.has(run.runId)) throw misuse(`run_end for run ${JSON.stringify(run.runId)}, which has no open run_start`);
      const { runId, stopReason, usage, subAgentUsage, iterations, at, error } = run;
      append({ type: "run_end", runId, stopReason, usage, ...(subAgentUsage ? { subAgentUsage } : {}), iterations, at, error });
      openRuns.delete(run.runId);
    },
    flush,
    close() {
      closing ??= flush().finally(() => handle.close());
      return closing;
    },
  };
}

function prefixKeyOf(prefix: SessionPrefix): string {
  return JSON.stringify([prefix.system.staticText, prefix.system.sessionText ?? null, prefix.tools, prefix.model]);
}

/** One record as a line of a file in format `version` (sealed with its checksum from version 4). */
export function serializeSessionRecord(record: SessionRecord, version: number): string {
  return `${JSON.stringify(version >= firstChecksumVersion ? sealRecord(record) : record)}\n`;
}
