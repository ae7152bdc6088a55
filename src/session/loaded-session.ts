import type { Message } from "../types/index.js";
import type {
  ContextEditRecord,
  HeaderRecord,
  PrefixRecord,
  RequestRecord,
  RunEndRecord,
  RunStartRecord,
  UsageRecord,
} from "./session-records.js";

/**
 * Something odd but recoverable found while loading. Returned as data so the caller can show it;
 * nothing is ever dropped without one of these.
 */
export type SessionWarning =
  | {
      /** The last line was cut off mid-write (a crash): it is not JSON and has no newline. */
      code: "torn_last_line";
      line: number;
      bytes: number;
      message: string;
    }
  | {
      /** The last record is complete JSON but its newline was never written; it was kept. */
      code: "unterminated_last_line";
      line: number;
      message: string;
    }
  | {
      /**
       * A message record whose id an earlier one already has (a duplicated line). It stays in `log`;
       * `messages` and `views` leave it out, so rebuilt requests match what was sent.
       */
      code: "duplicate_message";
      line: number;
      messageId: string;
      firstLine: number;
      /** Whether the two records are identical (a line written twice) or differ (two messages, one id). */
      identical: boolean;
      message: string;
    }
  | {
      /** A usage record for a request that is not recorded before it, or for one that already has usage; kept here, not in `usage`. */
      code: "orphan_usage" | "duplicate_usage";
      line: number;
      record: UsageRecord;
      message: string;
    }
  | {
      /** A request a model reply followed, with no usage record (a usage line lost): its tokens are not counted. */
      code: "missing_usage";
      line: number;
      request: number;
      message: string;
    }
  | {
      /**
       * Records that disagree with each other (see createRecordCrossCheck), or a record whose
       * checksum (format 4) does not match: the file was edited after ctxkit wrote it.
       */
      code: "records_disagree" | "record_edited";
      line: number;
      message: string;
    }
  | {
      /** Resuming with consent rewrote the file without the damaged lines; the original is kept at `backupPath`. */
      code: "session_repaired";
      line: number;
      removedLines: number[];
      /** Lines put back after what they refer to (a reordering repair). */
      movedLines?: number[];
      backupPath: string;
      message: string;
    };

/** Warnings that change what a resumed agent would continue from: resuming needs the user's consent. */
export const warningsNeedingRepair: ReadonlySet<SessionWarning["code"]> = new Set(["duplicate_message", "orphan_usage", "duplicate_usage"]);

/** A request record plus which prefix record was in force when it was sent. */
export interface LoadedRequest extends RequestRecord {
  /** Index into `LoadedSession.prefixes`. */
  prefixIndex: number;
  /** Index into `LoadedSession.views`: the context (after any edits) this request sent from. */
  viewIndex: number;
}

/** One `agent.run()`: its start, its end (absent when the process died mid-run). */
export interface SessionRun {
  start: RunStartRecord;
  end?: RunEndRecord;
  /** Trajectory messages that existed before the run started. */
  messageIndex: number;
}

export interface LoadedSession {
  path: string;
  header: HeaderRecord;
  /** The prefix in force at the end of the file. */
  prefix: PrefixRecord;
  /** Every prefix record, in file order; the first is the session's original prefix. */
  prefixes: PrefixRecord[];
  /** The context as it stands at the end of the file (after context edits): what a resumed agent continues. */
  messages: Message[];
  /** Every message ever recorded, in order — including ones a context edit later replaced. */
  log: Message[];
  /** The context after each edit: `views[0]` from the start, `views[k]` after the k-th context edit. */
  views: Message[][];
  edits: ContextEditRecord[];
  requests: LoadedRequest[];
  usage: UsageRecord[];
  runs: SessionRun[];
  warnings: SessionWarning[];
}
