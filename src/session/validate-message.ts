import type { Message, Usage, UserMessage } from "../types/index.js";
import {
  expectArrayOf,
  expectBoolean,
  expectCount,
  expectNonNegativeNumber,
  expectObject,
  expectOneOf,
  expectOptionalString,
  expectString,
  isPlainObject,
  type ShapeProblem,
} from "./validate-json-shape.js";

const MESSAGE_ORIGINS = ["user", "model", "tool", "harness"] as const;
// `paused` came with ctxkit's handling of Anthropic's pause_turn; files written before never hold it.
const STOP_REASONS = ["stop", "tool_calls", "length", "content_filter", "paused", "aborted", "error"] as const;
const PART_TYPES = ["text", "thinking", "tool_call", "provider_block"] as const;

/**
 * Checks that a value read from a session file is a `Message`. Unknown extra fields are allowed and
 * kept: a message is stored exactly as sent, and a newer ctxkit may add fields an older one ignores.
 */
export function checkMessage(value: unknown, path = "message"): ShapeProblem {
  if (!isPlainObject(value)) return expectObject(value, path);
  const meta = checkMeta(value.meta, `${path}.meta`);
  if (meta) return meta;
  switch (value.role) {
    case "system":
    case "user":
      return expectString(value.content, `${path}.content`);
    case "assistant":
      return (
        expectArrayOf(value.content, `${path}.content`, checkAssistantPart) ??
        (value.stopReason === undefined ? undefined : expectOneOf(value.stopReason, STOP_REASONS, `${path}.stopReason`)) ??
        expectOptionalString(value.rawStopReason, `${path}.rawStopReason`)
      );
    case "tool":
      return (
        expectString(value.toolCallId, `${path}.toolCallId`) ??
        expectString(value.toolName, `${path}.toolName`) ??
        expectString(value.content, `${path}.content`) ??
        expectBoolean(value.isError, `${path}.isError`)
      );
    default:
      return expectOneOf(value.role, ["system", "user", "assistant", "tool"], `${path}.role`);
  }
}

export function checkUserMessage(value: unknown, path: string): ShapeProblem {
  if (isPlainObject(value) && value.role !== "user") return expectOneOf(value.role, ["user"], `${path}.role`);
  return checkMessage(value, path);
}

export function checkUsage(value: unknown, path: string): ShapeProblem {
  if (!isPlainObject(value)) return expectObject(value, path);
  const counts = ["inputTokens", "cachedInputTokens", "cacheWriteTokens", "outputTokens", "reasoningTokens"] as const;
  for (const key of counts) {
    const problem = expectNonNegativeNumber(value[key], `${path}.${key}`);
    if (problem) return problem;
  }
  for (const key of ["timeToFirstTokenMs", "latencyMs"] as const) {
    if (value[key] !== undefined) {
      const problem = expectNonNegativeNumber(value[key], `${path}.${key}`);
      if (problem) return problem;
    }
  }
  return undefined;
}

// The names a tool_search result returned: its discovery message after a restart is made from them.
function checkToolSearch(value: unknown, path: string): ShapeProblem {
  if (!isPlainObject(value)) return expectObject(value, path);
  return expectArrayOf(value.names, `${path}.names`, expectString);
}

function checkMeta(value: unknown, path: string): ShapeProblem {
  if (!isPlainObject(value)) return expectObject(value, path);
  return (
    expectString(value.id, `${path}.id`) ??
    expectOneOf(value.origin, MESSAGE_ORIGINS, `${path}.origin`) ??
    expectString(value.createdAt, `${path}.createdAt`) ??
    (value.derived === undefined ? undefined : checkDerived(value.derived, `${path}.derived`)) ??
    (value.subAgent === undefined ? undefined : checkSubAgentRun(value.subAgent, `${path}.subAgent`)) ??
    (value.external === undefined ? undefined : checkExternal(value.external, `${path}.external`)) ??
    (value.toolSearch === undefined ? undefined : checkToolSearch(value.toolSearch, `${path}.toolSearch`)) ??
    (value.provenance === undefined ? undefined : checkProvenance(value.provenance, `${path}.provenance`))
  );
}

// Where a derived message's untrusted material came from: the runtime guard reads it.
function checkProvenance(value: unknown, path: string): ShapeProblem {
  if (!isPlainObject(value)) return expectObject(value, path);
  return expectArrayOf(value.untrusted, `${path}.untrusted`, (entry, at) => {
    if (!isPlainObject(entry)) return expectObject(entry, at);
    return expectString(entry.source, `${at}.source`) ?? expectOneOf(entry.trust, ["external", "workspace"], `${at}.trust`);
  });
}

// How an outside tool result was tagged: the status bar and the viewer read these fields.
function checkExternal(value: unknown, path: string): ShapeProblem {
  if (!isPlainObject(value)) return expectObject(value, path);
  return (
    expectString(value.source, `${path}.source`) ??
    (value.trust === undefined ? undefined : expectOneOf(value.trust, ["external", "workspace"], `${path}.trust`)) ??
    expectString(value.nonce, `${path}.nonce`) ??
    (value.callNumber === undefined ? undefined : expectCount(value.callNumber, `${path}.callNumber`)) ??
    expectCount(value.neutralisedMarkers, `${path}.neutralisedMarkers`) ??
    expectCount(value.hiddenCharacters, `${path}.hiddenCharacters`) ??
    expectArrayOf(value.screening, `${path}.screening`, checkScreeningHit)
  );
}

function checkScreeningHit(value: unknown, path: string): ShapeProblem {
  if (!isPlainObject(value)) return expectObject(value, path);
  return expectString(value.rule, `${path}.rule`) ?? expectString(value.language, `${path}.language`);
}

// A sub-agent link (v3 files may carry it; older ones never do): the fields the session tree reads.
function checkSubAgentRun(value: unknown, path: string): ShapeProblem {
  if (!isPlainObject(value)) return expectObject(value, path);
  return (
    expectString(value.agent, `${path}.agent`) ??
    expectOptionalString(value.sessionId, `${path}.sessionId`) ??
    expectString(value.stopReason, `${path}.stopReason`) ??
    expectNonNegativeNumber(value.iterations, `${path}.iterations`) ??
    checkUsage(value.usage, `${path}.usage`) ??
    expectString(value.provider, `${path}.provider`) ??
    expectString(value.model, `${path}.model`)
  );
}

// The kind is checked, and what a compaction reads back (a summary's `keptLines`, the tag nonces
// an archive or a summary recorded): what a kind carries may grow, and a newer ctxkit's kinds must still load.
function checkDerived(value: unknown, path: string): ShapeProblem {
  if (!isPlainObject(value)) return expectObject(value, path);
  return (
    expectString(value.kind, `${path}.kind`) ??
    (value.kind === "summary" && value.keptLines !== undefined ? expectArrayOf(value.keptLines, `${path}.keptLines`, expectString) : undefined) ??
    ((value.kind === "summary" || value.kind === "archive") && value.tagNonces !== undefined ? expectArrayOf(value.tagNonces, `${path}.tagNonces`, expectString) : undefined)
  );
}

function checkAssistantPart(value: unknown, path: string): ShapeProblem {
  if (!isPlainObject(value)) return expectObject(value, path);
  switch (value.type) {
    case "text":
      return expectString(value.text, `${path}.text`);
    case "thinking":
      return (
        expectString(value.thinking, `${path}.thinking`) ??
        expectOptionalString(value.signature, `${path}.signature`) ??
        expectOptionalString(value.redactedData, `${path}.redactedData`) ??
        expectOptionalString(value.providerDetails, `${path}.providerDetails`)
      );
    case "tool_call":
      // `arguments` is whatever the model's text parsed to (or absent): any JSON value is fine.
      return (
        expectString(value.id, `${path}.id`) ??
        expectString(value.name, `${path}.name`) ??
        expectString(value.argumentsText, `${path}.argumentsText`)
      );
    case "provider_block":
      return expectOneOf(value.provider, ["anthropic", "openai"], `${path}.provider`) ?? expectString(value.block, `${path}.block`);
    default:
      return expectOneOf(value.type, PART_TYPES, `${path}.type`);
  }
}

/** Type guards for callers that only need yes or no. */
export function isMessage(value: unknown): value is Message {
  return checkMessage(value) === undefined;
}

export function isUserMessage(value: unknown): value is UserMessage {
  return checkUserMessage(value, "message") === undefined;
}

export function isUsage(value: unknown): value is Usage {
  return checkUsage(value, "usage") === undefined;
}
