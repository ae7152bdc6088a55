export { createSessionStore } from "./session-store.js";
export type { CreateSessionOptions, JsonlSessionStore, SessionStore, SessionStoreOptions } from "./session-store.js";
export type { SessionRepair, SessionRepairOptions } from "./repair-session-file.js";
export type { SessionSink } from "./session-writer.js";
export type {
  AppendContextEditInput,
  AppendRequestInput,
  AppendRunEndInput,
  AppendRunStartInput,
  SessionWriter,
} from "./session-writer.js";
export type { LoadedRequest, LoadedSession, SessionRun, SessionWarning } from "./loaded-session.js";
export type { SessionSummary } from "./session-summary.js";
export { SESSION_FORMAT, SESSION_FORMAT_VERSION } from "./session-records.js";
export type {
  ContextEditRecord,
  HeaderRecord,
  MessageRecord,
  PrefixRecord,
  RequestRecord,
  RunEndRecord,
  RunStartRecord,
  RunBudgetRecord,
  SessionPrefix,
  SessionRecord,
  SessionRecordType,
  UsageRecord,
} from "./session-records.js";
export { rebuildRequest } from "./rebuild-request.js";
export type { RebuiltRequest } from "./rebuild-request.js";
export { parseSessionFile } from "./parse-session-file.js";
export type { ParsedSessionFile } from "./parse-session-file.js";
export { validateSessionRecord } from "./validate-session-record.js";
export type { SessionRecordCheck } from "./validate-session-record.js";
export { createSessionId, isValidSessionId } from "./session-id.js";
export { startSession, type StartSessionOptions, type StartedSession } from "./start-session.js";
export { recordedCalls, sessionSpend, type RecordedCall } from "./session-spend.js";
export { collectSubAgentLinks, sumSubAgentUsage, type SubAgentLink } from "./sub-agent-links.js";
export { storedPromptParts, type StoredPromptParts } from "./stored-prompt-parts.js";
