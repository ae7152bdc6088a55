import type { RunStopReason } from "../types/index.js";
import type { SessionRecord, SessionRecordType } from "./session-records.js";
import { checkMessage, checkUsage, checkUserMessage } from "./validate-message.js";
import {
  expectArrayOf,
  expectCount,
  expectNonNegativeNumber,
  expectObject,
  expectOneOf,
  expectOptionalString,
  expectString,
  isPlainObject,
  type ShapeProblem,
} from "./validate-json-shape.js";

const RECORD_TYPES: readonly SessionRecordType[] = [
  "header",
  "prefix",
  "message",
  "request",
  "usage",
  "context_edit",
  "run_start",
  "run_end",
];
const RUN_STOP_REASONS: readonly RunStopReason[] = [
  "final_answer",
  "max_iterations",
  "aborted",
  "repeated_tool_call",
  "budget_exceeded",
  "error",
];

export type SessionRecordCheck = { ok: true; record: SessionRecord } | { ok: false; reason: string };

/**
 * Validates one parsed line of a session file (the trust boundary: files are edited, copied, cut off).
 * Only the shape of the record is checked here; how records relate (a request needs a prefix before
 * it, usage needs its request) is checked by the loader, which knows the order.
 */
export function validateSessionRecord(value: unknown): SessionRecordCheck {
  const reason = checkSessionRecord(value);
  return reason === undefined ? { ok: true, record: value as SessionRecord } : { ok: false, reason };
}

function checkSessionRecord(value: unknown): ShapeProblem {
  if (!isPlainObject(value)) return expectObject(value, "record");
  switch (value.type) {
    case "header":
      return (
        expectString(value.format, "format") ??
        expectCount(value.version, "version") ??
        expectString(value.id, "id") ??
        expectString(value.createdAt, "createdAt") ??
        expectOptionalString(value.workspace, "workspace")
      );
    case "prefix":
      return (
        checkSystemPrompt(value.system, "system") ??
        expectArrayOf(value.tools, "tools", checkToolDefinition) ??
        expectString(value.provider, "provider") ??
        expectString(value.model, "model") ??
        expectOptionalString(value.reason, "reason") ??
        (value.policySectionsAt === undefined ? undefined : expectCount(value.policySectionsAt, "policySectionsAt"))
      );
    case "message":
      return checkMessage(value.message, "message");
    case "request":
      return (
        expectCount(value.index, "index") ??
        expectCount(value.messageCount, "messageCount") ??
        (value.tail === null ? undefined : checkUserMessage(value.tail, "tail")) ??
        expectString(value.provider, "provider") ??
        expectString(value.model, "model") ??
        expectString(value.at, "at") ??
        (value.bodyHash === undefined ? undefined : checkBodyHash(value.bodyHash)) ??
        expectOptionalString(value.effort, "effort") ??
        (value.cacheLifetimeMs === undefined || value.cacheLifetimeMs === null ? undefined : expectCount(value.cacheLifetimeMs, "cacheLifetimeMs"))
      );
    case "usage":
      return expectCount(value.request, "request") ?? checkUsage(value.usage, "usage");
    case "context_edit":
      return (
        expectCount(value.start, "start") ??
        expectCount(value.end, "end") ??
        expectArrayOf(value.messages, "messages", checkMessage) ??
        expectString(value.reason, "reason") ??
        expectString(value.at, "at")
      );
    case "run_start":
      return (
        expectString(value.runId, "runId") ??
        expectString(value.input, "input") ??
        expectString(value.at, "at") ??
        (value.budget === undefined ? undefined : expectArrayOf(value.budget, "budget", checkRunBudget))
      );
    case "run_end":
      return (
        expectString(value.runId, "runId") ??
        expectOneOf(value.stopReason, RUN_STOP_REASONS, "stopReason") ??
        checkUsage(value.usage, "usage") ??
        (value.subAgentUsage === undefined ? undefined : checkUsage(value.subAgentUsage, "subAgentUsage")) ??
        expectCount(value.iterations, "iterations") ??
        expectString(value.at, "at") ??
        (value.error === undefined ? undefined : checkRunError(value.error, "error"))
      );
    default:
      return expectOneOf(value.type, RECORD_TYPES, "type");
  }
}

function checkSystemPrompt(value: unknown, path: string): ShapeProblem {
  if (!isPlainObject(value)) return expectObject(value, path);
  return expectString(value.staticText, `${path}.staticText`) ?? expectOptionalString(value.sessionText, `${path}.sessionText`);
}

function checkToolDefinition(value: unknown, path: string): ShapeProblem {
  if (!isPlainObject(value)) return expectObject(value, path);
  return (
    expectString(value.name, `${path}.name`) ??
    expectString(value.description, `${path}.description`) ??
    expectObject(value.parameters, `${path}.parameters`)
  );
}

function checkRunBudget(value: unknown, path: string): ShapeProblem {
  if (!isPlainObject(value)) return expectObject(value, path);
  return (
    expectOneOf(value.level, ["session", "task", "agent"], `${path}.level`) ??
    expectOptionalString(value.label, `${path}.label`) ??
    (value.tokens === undefined ? undefined : expectNonNegativeNumber(value.tokens, `${path}.tokens`)) ??
    (value.costUsd === undefined ? undefined : expectNonNegativeNumber(value.costUsd, `${path}.costUsd`)) ??
    expectOneOf(value.mode, ["hard", "soft", "approval"], `${path}.mode`) ??
    expectNonNegativeNumber(value.spentTokens, `${path}.spentTokens`) ??
    expectNonNegativeNumber(value.spentCostUsd, `${path}.spentCostUsd`)
  );
}

function checkRunError(value: unknown, path: string): ShapeProblem {
  if (!isPlainObject(value)) return expectObject(value, path);
  return expectString(value.code, `${path}.code`) ?? expectString(value.message, `${path}.message`);
}

// A damaged hash would pass for a changed body on resume, or go unnoticed on an earlier request.
function checkBodyHash(value: unknown): ShapeProblem {
  return typeof value === "string" && /^sha256:[0-9a-f]{64}$/.test(value) ? undefined : `bodyHash: expected "sha256:" and 64 hex digits, got ${JSON.stringify(value)}`;
}
