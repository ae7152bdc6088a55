import type { ClaudeCodeEntry } from "./claude-code-entries.js";
import { isRecord } from "./json-guards.js";

/**
 * Finds the user lines that answer each API response's tool calls. Claude Code writes the result of
 * each parallel tool call as its own user line, whose parent is the assistant line holding that call,
 * and continues the conversation from the last of them only: the other results hang off the
 * `parentUuid` chain, though the request that followed carried them all (checked on Claude Code
 * 2.0.76 and 2.1.38–2.1.39 sessions). Progress and hook lines between a result and its call are
 * passed over. Returns, per response, its result lines in file order (a call answered twice keeps
 * its first answer), and the response every result line answers, the dropped second answers too
 * (so that one on the chain is not sent again).
 */
export function toolResultLinesByResponse<Response>(
  entries: readonly ClaudeCodeEntry[],
  responseOfLine: ReadonlyMap<string, Response>,
  nearestMessageAncestor: (entry: ClaudeCodeEntry) => ClaudeCodeEntry | undefined,
): { linesByResponse: Map<Response, ClaudeCodeEntry[]>; responseOfResult: Map<string, Response> } {
  const linesByResponse = new Map<Response, ClaudeCodeEntry[]>();
  const responseOfResult = new Map<string, Response>();
  for (const entry of entries) {
    if (entry.type !== "user" || toolResultIds(entry).length === 0) continue;
    const call = nearestMessageAncestor(entry);
    const response = call === undefined ? undefined : responseOfLine.get(call.uuid);
    if (response === undefined) continue;
    responseOfResult.set(entry.uuid, response);
    const lines = linesByResponse.get(response) ?? [];
    lines.push(entry);
    linesByResponse.set(response, lines);
  }
  for (const [response, lines] of linesByResponse) linesByResponse.set(response, firstAnswers(lines.sort((a, b) => a.line - b.line)));
  return { linesByResponse, responseOfResult };
}

/** A call answered twice (a corrupt or hand-edited file) keeps its first answer: the request held one. */
function firstAnswers(lines: ClaudeCodeEntry[]): ClaudeCodeEntry[] {
  const answered = new Set<string>();
  return lines.filter((line) => {
    const ids = toolResultIds(line);
    if (ids.every((id) => answered.has(id))) return false;
    for (const id of ids) answered.add(id);
    return true;
  });
}

/** The `tool_use_id`s a user line answers. */
export function toolResultIds(entry: ClaudeCodeEntry): string[] {
  const content = entry.message?.content;
  if (!Array.isArray(content)) return [];
  return content.flatMap((block) => (isRecord(block) && block.type === "tool_result" && typeof block.tool_use_id === "string" ? [block.tool_use_id] : []));
}

/**
 * The nearest ancestor line with a message, along `parents` (loop-free). What each progress or hook
 * line leads up to is remembered, so many results under one long run of such lines (a hostile file)
 * cost one walk of it, not one each.
 */
export function nearestMessageAncestorFinder(parents: ReadonlyMap<string, ClaudeCodeEntry>): (entry: ClaudeCodeEntry) => ClaudeCodeEntry | undefined {
  const reached = new Map<string, ClaudeCodeEntry | undefined>();
  return (entry) => {
    const passed: string[] = [];
    let found: ClaudeCodeEntry | undefined;
    for (let parent = parents.get(entry.uuid); parent !== undefined; parent = parents.get(parent.uuid)) {
      if (parent.message !== undefined) {
        found = parent;
        break;
      }
      if (reached.has(parent.uuid)) {
        found = reached.get(parent.uuid);
        break;
      }
      passed.push(parent.uuid);
    }
    for (const uuid of passed) reached.set(uuid, found);
    return found;
  };
}
