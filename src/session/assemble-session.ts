import type { Message } from "../types/index.js";
import { createRecordCrossCheck } from "./cross-check-records.js";
import { migrateDerivedMetadata } from "./migrate-derived-metadata.js";
import type { LoadedRequest, LoadedSession, SessionRun, SessionWarning } from "./loaded-session.js";
import type { ContextEditRecord, HeaderRecord, PrefixRecord, SessionRecord, UsageRecord } from "./session-records.js";

export interface SessionAssembly {
  /**
   * Adds the next record (from 1-based `line`) in file order; returns why it cannot follow the
   * records before it. Recoverable oddities become warnings instead (see SessionWarning).
   */
  add(record: SessionRecord, line: number): string | undefined;
  /** The assembled session, or why the file as a whole is incomplete. */
  finish(path: string, warnings: SessionWarning[]): LoadedSession | string;
}

/**
 * Folds validated records into a `LoadedSession`, checking how they relate: what `rebuildRequest`
 * relies on (a prefix before every request, request numbers in order, counts that exist) is proven
 * here once, so readers of a loaded session can trust it.
 */
export function assembleSession(header: HeaderRecord): SessionAssembly {
  const prefixes: PrefixRecord[] = [];
  // `log` holds every message record; `views` the context as sent, one array per context edit
  // (v2): requests index into the view that was current when they were sent.
  const log: Message[] = [];
  const views: Message[][] = [[]];
  const edits: ContextEditRecord[] = [];
  let messages: Message[] = views[0]!;
  const requests: LoadedRequest[] = [];
  const usage: UsageRecord[] = [];
  const runs: SessionRun[] = [];
  const found: SessionWarning[] = [];
  const messageLines = new Map<string, { line: number; json: string }>();
  const requestsWithUsage = new Set<number>();
  // Requests a model reply followed (request index → its line and the reply's): each must have usage.
  const answered = new Map<number, { requestLine: number; replyLine: number }>();
  let lastRequestLine = 0;
  const crossCheck = createRecordCrossCheck(header.version);

  const add = (record: SessionRecord, line: number): string | undefined => {
    switch (record.type) {
      case "header":
        return "a second header record (only line 1 may be a header)";
      case "prefix":
        prefixes.push(record);
        return undefined;
      case "message": {
        const message = header.version < 3 ? migrateDerivedMetadata(record.message) : record.message;
        log.push(message);
        const json = JSON.stringify(record.message);
        const first = messageLines.get(record.message.meta.id);
        if (first !== undefined) {
          const identical = first.json === json;
          found.push({
            code: "duplicate_message",
            line,
            messageId: record.message.meta.id,
            firstLine: first.line,
            identical,
            message:
              `Line ${line} repeats message id ${JSON.stringify(record.message.meta.id)} from line ${first.line}` +
              `${identical ? " (an identical copy, most likely a line written twice)" : " with different content"}; it is kept in the ` +
              "file and the log but left out of the context, so rebuilt requests match what was sent.",
          });
          return undefined;
        }
        messageLines.set(record.message.meta.id, { line, json });
        messages.push(message);
        crossCheck.message(message, line);
        if (message.role === "assistant" && message.stopReason !== "aborted" && message.stopReason !== "error" && requests.length > 0 && !answered.has(requests.length - 1)) {
          answered.set(requests.length - 1, { requestLine: lastRequestLine, replyLine: line });
        }
        return undefined;
      }
      case "context_edit": {
        if (header.version < 2) return "a context_edit record in a version 1 file (context edits arrived in version 2)";
        if (record.start > record.end || record.end > messages.length) {
          return `context_edit replaces messages ${record.start}–${record.end}, but the context has ${messages.length}`;
        }
        const inserted = header.version < 3 ? record.messages.map(migrateDerivedMetadata) : record.messages;
        messages = [...messages.slice(0, record.start), ...inserted, ...messages.slice(record.end)];
        views.push(messages);
        crossCheck.edited(messages, line);
        edits.push(inserted === record.messages ? record : { ...record, messages: inserted });
        return undefined;
      }
      case "request":
        if (prefixes.length === 0) return "a request record before any prefix record";
        if (record.index !== requests.length) {
          return `request index ${record.index}, expected ${requests.length} (requests are numbered 0, 1, 2, … in file order)`;
        }
        if (record.messageCount > messages.length) {
          return `request ${record.index} sent ${record.messageCount} messages, but only ${messages.length} are recorded before it`;
        }
        crossCheck.request(record, line, messages.length);
        requests.push({ ...record, prefixIndex: prefixes.length - 1, viewIndex: views.length - 1 });
        lastRequestLine = line;
        return undefined;
      case "usage":
        if (record.request >= requests.length) {
          found.push({
            code: "orphan_usage",
            line,
            record,
            message: `Line ${line} is usage for request ${record.request}, which is not recorded before it (a request line is missing or out of order); it is not counted.`,
          });
          return undefined;
        }
        if (requestsWithUsage.has(record.request)) {
          found.push({
            code: "duplicate_usage",
            line,
            record,
            message: `Line ${line} is a second usage record for request ${record.request}; it is not counted twice.`,
          });
          return undefined;
        }
        requestsWithUsage.add(record.request);
        usage.push(record);
        crossCheck.usage(record);
        return undefined;
      case "run_start":
        runs.push({ start: record, messageIndex: messages.length });
        crossCheck.runStart(record.runId);
        return undefined;
      case "run_end": {
        const run = runs.findLast((candidate) => candidate.start.runId === record.runId && candidate.end === undefined);
        if (run === undefined) return `run_end for run ${JSON.stringify(record.runId)} without an open run_start`;
        run.end = record;
        crossCheck.runEnd(record, line);
        return undefined;
      }
    }
  };

  const finish = (path: string, warnings: SessionWarning[]): LoadedSession | string => {
    const prefix = prefixes.at(-1);
    if (prefix === undefined) return "the file has no prefix record (every session starts with one after the header)";
    // A finished call writes its usage before its reply, so a reply without usage means a usage line went missing.
    const missing: SessionWarning[] = [...answered]
      .filter(([request]) => !requestsWithUsage.has(request))
      .map(([request, lines]) => ({
        code: "missing_usage",
        line: lines.requestLine,
        request,
        message: `Request ${request} (line ${lines.requestLine}) was answered (line ${lines.replyLine}) but has no usage record: a usage line is most likely missing, so its tokens are not counted.`,
      }));
    return { path, header, prefix, prefixes, messages, log, views, edits, requests, usage, runs, warnings: [...found, ...crossCheck.warnings(), ...missing, ...warnings] };
  };

  return { add, finish };
}
