import { dirname, join } from "node:path";
import { collectSubAgentLinks, parseSessionFile, rebuildRequest, type LoadedSession, type UsageRecord } from "../../session/index.js";
import { CtxkitError } from "../../types/index.js";
import type { ImportedCall, ImportedTranscript, ImportProblem, ImportResult, ReportedUsage } from "../imported-transcript.js";
import { createImportedRequest } from "./create-imported-request.js";
import { withoutUndefined } from "./json-guards.js";

/**
 * Imports a ctxkit session file: one call per request record, with the exact system, tools,
 * trajectory and tail it sent, the provider's usage for it and the assistant message that followed.
 * The session loader is strict (a damaged line fails the whole load); here the records before the
 * first bad line are still imported and the bad line becomes a problem.
 */
export function importCtxkitSession(text: string, file: string): ImportResult {
  const problems: ImportProblem[] = [];
  let lines = text.split("\n");
  // Each retry drops the reported line and all after it, so there are at most as many as lines.
  for (let attempt = 0; ; attempt += 1) {
    try {
      const { session } = parseSessionFile(new TextEncoder().encode(lines.join("\n")), file);
      for (const warning of session.warnings) problems.push({ file, line: warning.line, reason: warning.message });
      return { transcripts: [toTranscript(session, file, requestLines(lines))], problems };
    } catch (error) {
      if (!(error instanceof CtxkitError)) throw error;
      const line = corruptLine(error);
      problems.push(line === undefined ? { file, reason: error.message } : { file, line, reason: error.message });
      // Line 1 is the header: without it nothing in the file can be read.
      if (error.code !== "session_corrupt" || line === undefined || line <= 1 || line > lines.length || attempt > lines.length) {
        return { transcripts: [], problems };
      }
      lines = [...lines.slice(0, line - 1), ""];
    }
  }
}

function toTranscript(session: LoadedSession, file: string, lineOfRequest: number[]): ImportedTranscript {
  const usageByRequest = new Map<number, UsageRecord>();
  for (const record of session.usage) usageByRequest.set(record.request, record);
  const calls: ImportedCall[] = session.requests.map((record, index) => {
    const rebuilt = rebuildRequest(session, index);
    // The reply follows the request in the context it was sent from; a later compaction may have
    // shortened the final context, and an edit recorded before the reply moves it to the next view.
    const next = session.views[record.viewIndex]?.[record.messageCount] ?? session.messages[record.messageCount];
    const usage = usageByRequest.get(index);
    const line = lineOfRequest[index];
    const call: ImportedCall = {
      request: createImportedRequest({ system: rebuilt.system, tools: rebuilt.tools, messages: rebuilt.messages, tail: rebuilt.tail }),
      source: line === undefined ? { file } : { file, line },
    };
    if (next?.role === "assistant") call.response = next;
    if (usage !== undefined) call.reportedUsage = toReportedUsage(usage);
    // Per call: a chat can switch the model or the reasoning effort mid-session, and a miss after it is named for it.
    call.model = record.model;
    if (record.effort !== undefined) call.effort = record.effort;
    if (record.cacheLifetimeMs !== undefined) call.cacheLifetimeMs = record.cacheLifetimeMs;
    const declared = declaredChange(session, index);
    if (declared !== undefined) call.declaredBreak = { reason: declared };
    return call;
  });
  return {
    id: session.header.id,
    format: "ctxkit",
    file,
    model: session.requests[0]?.model ?? session.prefix.model,
    calls,
    toolsKnown: true,
    systemKnown: true,
    meta: withoutUndefined({ provider: session.prefix.provider, createdAt: session.header.createdAt, workspace: session.header.workspace, ...subAgentMeta(session, file) }),
    ...subAgentNotes(session, file),
  };
}

/**
 * The sub-agents the session ran: their calls are in their own session files (beside this one),
 * so they are named here, not counted among this session's calls.
 */
function subAgentNotes(session: LoadedSession, file: string): { notes?: string[] } {
  const links = collectSubAgentLinks(session.log);
  if (links.length === 0) return {};
  return {
    notes: links.map(({ run, description }) => {
      const where = run.sessionId ? `session ${run.sessionId} (${join(dirname(file), `${run.sessionId}.jsonl`)}; inspect it for its calls)` : "no session recorded";
      return `sub-agent ${run.agent}${description ? ` ${JSON.stringify(description)}` : ""} ran in ${where}: ${run.stopReason}, ${run.iterations} calls, ${run.usage.inputTokens} prompt tokens (${run.usage.cachedInputTokens} cached), ${run.usage.outputTokens} output`;
    }),
  };
}

function subAgentMeta(session: LoadedSession, file: string): { subAgents?: unknown } {
  const links = collectSubAgentLinks(session.log);
  if (links.length === 0) return {};
  return { subAgents: links.map((link) => ({ ...link, ...(link.run.sessionId ? { file: join(dirname(file), `${link.run.sessionId}.jsonl`) } : {}) })) };
}

/** Why request `index` was sent from a different prefix or an edited context than the one before it, if it was. */
function declaredChange(session: LoadedSession, index: number): string | undefined {
  const request = session.requests[index];
  const previous = session.requests[index - 1];
  if (request === undefined || previous === undefined) return undefined;
  const reasons: string[] = [];
  if (request.prefixIndex !== previous.prefixIndex) reasons.push(session.prefixes[request.prefixIndex]?.reason ?? "prefix changed");
  for (let edit = previous.viewIndex; edit < request.viewIndex; edit += 1) reasons.push(session.edits[edit]?.reason ?? "context edit");
  return reasons.length === 0 ? undefined : reasons.join("; ");
}

function toReportedUsage(record: UsageRecord): ReportedUsage {
  const { usage } = record;
  return {
    promptTokens: usage.inputTokens,
    cachedTokens: usage.cachedInputTokens,
    cacheWriteTokens: usage.cacheWriteTokens,
    completionTokens: usage.outputTokens,
    ...(usage.cacheWrite1hTokens === undefined ? {} : { cacheWrite1hTokens: usage.cacheWrite1hTokens }),
    ...(usage.serverContext === undefined ? {} : { serverEdits: usage.serverContext.edits.map((edit) => edit.type) }),
  };
}

/**
 * Line numbers of the request records, for pointing at a call in the file. The session writer puts
 * `type` first, so a prefix test finds them without parsing every line a second time.
 */
function requestLines(lines: string[]): number[] {
  const found: number[] = [];
  for (const [index, line] of lines.entries()) if (line.startsWith('{"type":"request"')) found.push(index + 1);
  return found;
}

/** parseSessionFile names the bad line in its message ("… is corrupt at line 7: …"). */
function corruptLine(error: CtxkitError): number | undefined {
  const match = / at line (\d+)/.exec(error.message);
  return match?.[1] === undefined ? undefined : Number(match[1]);
}
