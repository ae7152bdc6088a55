import type { ImportProblem } from "../imported-transcript.js";
import { isRecord, optionalString, type JsonObject } from "./json-guards.js";
import type { JsonLine } from "./read-json-lines.js";

/** A line of a Claude Code session that has a place in the conversation tree. */
export interface ClaudeCodeEntry {
  line: number;
  type: string;
  uuid: string;
  parentUuid: string | undefined;
  timestamp: string;
  isSidechain: boolean;
  isMeta: boolean;
  /** The summary Claude Code writes when it compacts the conversation (`/compact` or auto-compact). */
  isCompactSummary: boolean;
  /** `message` of user and assistant lines; undefined for system, progress and other lines. */
  message: JsonObject | undefined;
}

export interface ClaudeCodeEntries {
  entries: ClaudeCodeEntry[];
  sessionId: string | undefined;
  summaries: string[];
  /** Sub-agent API responses echoed in `agent_progress` lines: agent id → distinct `message.id`s. */
  subAgentResponses: Map<string, Set<string>>;
  problems: ImportProblem[];
}

/**
 * Sorts the lines of `~/.claude/projects/<project>/<session>.jsonl`. Lines with a `uuid` are nodes
 * of the conversation tree (linked by `parentUuid`); only "user" and "assistant" lines carry model
 * messages. Claude Code adds line types over time (progress, file-history-snapshot, queue-operation…),
 * so unknown types are skipped, but a user or assistant line without its message is a problem.
 */
export function readClaudeCodeEntries(records: JsonLine[], file: string): ClaudeCodeEntries {
  const result: ClaudeCodeEntries = { entries: [], sessionId: undefined, summaries: [], subAgentResponses: new Map(), problems: [] };
  for (const { line, value } of records) {
    if (!isRecord(value) || typeof value.type !== "string") {
      result.problems.push({ file, line, reason: 'expected a Claude Code record {"type": …}' });
      continue;
    }
    if (value.type === "summary") {
      if (typeof value.summary === "string") result.summaries.push(value.summary);
      continue;
    }
    result.sessionId ??= optionalString(value.sessionId);
    if (value.type === "progress") noteSubAgentResponse(value.data, result.subAgentResponses);
    const isMessageLine = value.type === "user" || value.type === "assistant";
    const message = isRecord(value.message) ? value.message : undefined;
    if (isMessageLine && (typeof value.uuid !== "string" || message === undefined || !isValidContent(message.content))) {
      result.problems.push({ file, line, reason: `a ${value.type} line needs a string uuid and message.content (a string or an array of blocks)` });
      continue;
    }
    if (typeof value.uuid !== "string") continue;
    result.entries.push({
      line,
      type: value.type,
      uuid: value.uuid,
      parentUuid: optionalString(value.parentUuid),
      timestamp: optionalString(value.timestamp) ?? "",
      isSidechain: value.isSidechain === true,
      isMeta: value.isMeta === true || value.isCompactSummary === true,
      isCompactSummary: value.isCompactSummary === true,
      message: isMessageLine ? message : undefined,
    });
  }
  return result;
}

function isValidContent(content: unknown): boolean {
  return typeof content === "string" || (Array.isArray(content) && content.every(isRecord));
}

/** Claude Code 2.1 echoes a running sub-agent's messages into the parent file; its own agent-<id>.jsonl holds the run. */
function noteSubAgentResponse(data: unknown, into: Map<string, Set<string>>): void {
  if (!isRecord(data) || data.type !== "agent_progress" || !isRecord(data.message) || data.message.type !== "assistant") return;
  const agentId = optionalString(data.agentId) ?? "unnamed";
  const messageId = isRecord(data.message.message) ? optionalString(data.message.message.id) : undefined;
  if (messageId === undefined) return;
  const ids = into.get(agentId) ?? new Set<string>();
  ids.add(messageId);
  into.set(agentId, ids);
}

/**
 * Each line's parent line, found once for the whole file: a request is the chain of a response's
 * ancestors, and walking it through the uuid map for every call made long sessions quadratic in map
 * look-ups. A parent link that would close a cycle (a corrupt or hostile file) is dropped, so every
 * chain ends.
 */
export function parentLinks(entries: readonly ClaudeCodeEntry[], byUuid: ReadonlyMap<string, ClaudeCodeEntry>): Map<string, ClaudeCodeEntry> {
  const parents = new Map<string, ClaudeCodeEntry>();
  const state = new Map<string, "open" | "done">();
  for (const start of entries) {
    const chain: ClaudeCodeEntry[] = [];
    for (let node: ClaudeCodeEntry | undefined = start; node !== undefined && !state.has(node.uuid); ) {
      state.set(node.uuid, "open");
      chain.push(node);
      const parent: ClaudeCodeEntry | undefined = node.parentUuid === undefined ? undefined : byUuid.get(node.parentUuid);
      if (parent === undefined || state.get(parent.uuid) === "open") break;
      parents.set(node.uuid, parent);
      node = parent;
    }
    for (const node of chain) state.set(node.uuid, "done");
  }
  return parents;
}
