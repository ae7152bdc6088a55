import { mapAnthropicStopReason } from "../../providers/anthropic/map-anthropic-stop-reason.js";
import { toolCallsOf, type AssistantMessage, type Message, type MessageMeta } from "../../types/index.js";
import type { ImportedCall, ImportedTranscript, ImportResult, ReportedUsage } from "../imported-transcript.js";
import { parentLinks, readClaudeCodeEntries, type ClaudeCodeEntry } from "./claude-code-entries.js";
import { nearestMessageAncestorFinder, toolResultLinesByResponse } from "./claude-code-tool-result-lines.js";
import { convertClaudeCodeAssistantBlocks, convertClaudeCodeUserContent } from "./convert-claude-code-content.js";
import { createImportedRequest } from "./create-imported-request.js";
import { isRecord, optionalCount, optionalString, withoutUndefined, type JsonObject } from "./json-guards.js";
import { readJsonLines } from "./read-json-lines.js";
import { SkippedRecords } from "./skipped-records.js";
import { transcriptIdFromFile } from "./transcript-id-from-file.js";

/** The lines of one API response: Claude Code writes one line per content block, sharing `message.id`. */
interface AssistantGroup {
  key: string;
  lines: ClaudeCodeEntry[];
  message: AssistantMessage;
  usage: ReportedUsage | undefined;
  model: string | undefined;
}

/**
 * Imports a Claude Code session JSONL. One call per API response (distinct `message.id`); its
 * request is the chain of `parentUuid` ancestors, which is what Claude Code sent — it follows
 * rewinds and compactions, where file order would not. Sidechain (sub-agent) lines are skipped
 * unless the file holds nothing else. The system prompt and tools are not recorded. Message ids are
 * the line uuids (`<session>:<uuid>`), unique even where the conversation branches.
 */
export function importClaudeCode(text: string, file: string): ImportResult {
  const { records, problems } = readJsonLines(text, file);
  const read = readClaudeCodeEntries(records, file);
  problems.push(...read.problems);
  const id = read.sessionId ?? transcriptIdFromFile(file);
  const withMessages = read.entries.filter((entry) => entry.message !== undefined);
  const sidechainOnly = withMessages.length > 0 && withMessages.every((entry) => entry.isSidechain);
  const entries = read.entries.filter((entry) => entry.isSidechain === sidechainOnly);
  const byUuid = new Map(entries.map((entry) => [entry.uuid, entry]));
  const skipped = new SkippedRecords();
  const groups = groupAssistantLines(entries, id, skipped);
  const groupOfLine = new Map<string, AssistantGroup>();
  const toolNames = new Map<string, string>();
  for (const group of groups.values()) {
    for (const line of group.lines) groupOfLine.set(line.uuid, group);
    for (const call of toolCallsOf(group.message)) toolNames.set(call.id, call.name);
  }
  const parents = parentLinks(entries, byUuid);
  const nearestMessageAncestor = nearestMessageAncestorFinder(parents);
  const { linesByResponse: resultLines, responseOfResult: resultOwner } = toolResultLinesByResponse(entries, groupOfLine, nearestMessageAncestor);

  const userMessages = new Map<string, Message[]>();
  const messagesOf = (entry: ClaudeCodeEntry): Message[] => {
    let converted = userMessages.get(entry.uuid);
    if (converted === undefined) {
      const metaFor = (index: number, origin: MessageMeta["origin"]): MessageMeta => ({
        id: index === 0 ? `${id}:${entry.uuid}` : `${id}:${entry.uuid}:${index}`,
        origin,
        createdAt: entry.timestamp,
      });
      const content = entry.message?.content as string | JsonObject[];
      converted = convertClaudeCodeUserContent(content, metaFor, toolNames, entry.isMeta ? "harness" : "user");
      userMessages.set(entry.uuid, converted);
    }
    return converted;
  };

  /** What a line adds to the requests after it: a request is the additions of its chain of ancestors, in order. */
  const additionsOf = (node: ClaudeCodeEntry): Message[] => {
    if (node.type === "user") {
      const owner = resultOwner.get(node.uuid);
      return owner === undefined || isSynthetic(owner) ? messagesOf(node) : [];
    }
    const group = groupOfLine.get(node.uuid);
    if (group === undefined || isSynthetic(group) || !opensResponse(node, group)) return [];
    // Parallel calls' results, on the chain or beside it, follow the response that asked for them.
    return [group.message, ...(resultLines.get(group) ?? []).flatMap(messagesOf)];
  };
  /**
   * Whether a response's line is its first on the chain. Its lines may be interleaved with its own
   * tool results (a tool run while the response still streams) and with progress lines.
   */
  const opensResponse = (node: ClaudeCodeEntry, group: AssistantGroup): boolean => {
    for (let line = nearestMessageAncestor(node); line !== undefined; line = nearestMessageAncestor(line)) {
      if (groupOfLine.get(line.uuid) === group) return false;
      if (resultOwner.get(line.uuid) !== group) return true;
    }
    return true;
  };
  // Each request extends the chain of the one before, so it starts from the nearest request already
  // built on its chain and adds only the lines after it: linear in the file, not in calls × chain.
  // A built list is only ever copied (slice), never changed, so no two requests share one.
  const builtThrough = new Map<string, Message[]>();
  /** The messages before `entry`, and from which index on they are new to this chain (none of an earlier request's). */
  const conversationBefore = (entry: ClaudeCodeEntry): { messages: Message[]; firstNew: number } => {
    const last = parents.get(entry.uuid);
    if (last === undefined) return { messages: [], firstNew: 0 };
    const pending: ClaudeCodeEntry[] = [];
    let base: Message[] = [];
    for (let node: ClaudeCodeEntry | undefined = last; node !== undefined; node = parents.get(node.uuid)) {
      const built = builtThrough.get(node.uuid);
      if (built !== undefined) {
        base = built;
        break;
      }
      pending.push(node);
    }
    const messages = base.slice();
    for (let index = pending.length - 1; index >= 0; index -= 1) messages.push(...additionsOf(pending[index] as ClaudeCodeEntry));
    builtThrough.set(last.uuid, messages);
    return { messages, firstNew: base.length };
  };

  const calls: ImportedCall[] = [];
  let model: string | undefined;
  // A request that first includes a compaction summary replaced the history before it, as declared.
  const summaryIds = new Set(entries.filter((entry) => entry.isCompactSummary).map((entry) => `${id}:${entry.uuid}`));
  const summariesSent = new Set<string>();
  for (const group of groups.values()) {
    // Claude Code writes "<synthetic>" assistant messages itself (API errors, interruptions): no model call.
    if (isSynthetic(group)) continue;
    const first = group.lines[0] as ClaudeCodeEntry;
    model ??= group.model;
    const { messages, firstNew } = conversationBefore(first);
    const call: ImportedCall = {
      request: createImportedRequest({ messages }),
      response: group.message,
      source: { file, line: first.line },
    };
    if (group.usage !== undefined) call.reportedUsage = group.usage;
    if (group.model !== undefined) call.model = group.model;
    // Only the messages new to this chain can hold a summary not sent before: every earlier one was in an earlier request.
    const summaries = summaryIds.size === 0 ? [] : messages.slice(firstNew).filter((message) => summaryIds.has(message.meta.id) && !summariesSent.has(message.meta.id));
    if (summaries.length > 0 && calls.length > 0) call.declaredBreak = { reason: "Claude Code compaction (history replaced by a summary)" };
    for (const summary of summaries) summariesSent.add(summary.meta.id);
    calls.push(call);
  }
  const transcript: ImportedTranscript = {
    id,
    format: "claude-code",
    file,
    calls,
    toolsKnown: false,
    systemKnown: false,
    meta: { summaries: read.summaries, sidechain: sidechainOnly },
  };
  if (model !== undefined) transcript.model = model;
  const notes: string[] = [];
  const note = skipped.note("assistant content blocks", "they are not in the counted prompts (the reported usage still includes them)");
  if (note !== undefined) notes.push(note);
  if (read.subAgentResponses.size > 0) {
    const agents = [...read.subAgentResponses].map(([agent, ids]) => `agent-${agent} (${ids.size} responses)`).join(", ");
    // Claude Code 2.1 keeps a sub-agent's own run in <session id>/subagents/agent-<agent id>.jsonl, a folder beside the session file.
    notes.push(`Sub-agent calls echoed in this file's progress lines are not counted here: ${agents}; inspect the folder ${id}/subagents/ beside this file for them.`);
  }
  if (notes.length > 0) transcript.notes = notes;
  return { transcripts: calls.length === 0 && withMessages.length === 0 ? [] : [transcript], problems };
}

function isSynthetic(group: AssistantGroup): boolean {
  return group.model === "<synthetic>";
}

/**
 * Merges the lines of each API response into one assistant message. Depending on the Claude Code
 * version the lines hold one block each or growing snapshots, so identical blocks are kept once.
 * Every line repeats the usage, but only the last carries the final `output_tokens`.
 */
function groupAssistantLines(entries: ClaudeCodeEntry[], transcriptId: string, skipped: SkippedRecords): Map<string, AssistantGroup> {
  const linesByKey = new Map<string, ClaudeCodeEntry[]>();
  for (const entry of entries) {
    if (entry.type !== "assistant" || entry.message === undefined) continue;
    const key = optionalString(entry.message.id) ?? entry.uuid;
    const lines = linesByKey.get(key) ?? [];
    lines.push(entry);
    linesByKey.set(key, lines);
  }
  const groups = new Map<string, AssistantGroup>();
  for (const [key, lines] of linesByKey) {
    const blocks: JsonObject[] = [];
    const seen = new Set<string>();
    let usage: JsonObject | undefined;
    let rawStopReason: string | undefined;
    for (const line of lines) {
      const message = line.message as JsonObject;
      const content = typeof message.content === "string" ? [{ type: "text", text: message.content }] : (message.content as JsonObject[]);
      for (const block of content) {
        const blockKey = JSON.stringify(block);
        if (!seen.has(blockKey)) blocks.push(block);
        seen.add(blockKey);
      }
      if (isRecord(message.usage) && (optionalCount(message.usage.output_tokens) ?? 0) >= (optionalCount(usage?.output_tokens) ?? 0)) usage = message.usage;
      rawStopReason = optionalString(message.stop_reason) ?? rawStopReason;
    }
    const first = lines[0] as ClaudeCodeEntry;
    const message: AssistantMessage = {
      role: "assistant",
      content: convertClaudeCodeAssistantBlocks(blocks, skipped),
      meta: { id: `${transcriptId}:${key}`, origin: "model", createdAt: first.timestamp },
    };
    if (rawStopReason !== undefined) {
      message.stopReason = mapAnthropicStopReason(rawStopReason, toolCallsOf(message).length > 0);
      message.rawStopReason = rawStopReason;
    }
    groups.set(key, { key, lines, message, usage: convertClaudeUsage(usage), model: optionalString(first.message?.model) });
  }
  return groups;
}

/**
 * Anthropic's `input_tokens` is only the uncached part; the prompt is it plus cache reads and writes.
 * `cache_creation` splits the writes by lifetime; Claude Code asks for 1-hour writes, billed at 2×
 * input instead of the 5-minute 1.25×.
 */
function convertClaudeUsage(usage: JsonObject | undefined): ReportedUsage | undefined {
  if (usage === undefined) return undefined;
  const input = optionalCount(usage.input_tokens);
  const read = optionalCount(usage.cache_read_input_tokens);
  const write = optionalCount(usage.cache_creation_input_tokens);
  const byLifetime = isRecord(usage.cache_creation) ? usage.cache_creation : {};
  return withoutUndefined<ReportedUsage>({
    promptTokens: input === undefined ? undefined : input + (read ?? 0) + (write ?? 0),
    cachedTokens: read,
    cacheWriteTokens: write,
    cacheWrite1hTokens: optionalCount(byLifetime.ephemeral_1h_input_tokens),
    completionTokens: optionalCount(usage.output_tokens),
  });
}
