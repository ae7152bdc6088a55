import type { ScriptedTurn } from "../../providers/scripted/scripted-turn.js";
import type { IsolationQuery } from "./isolation-queries.js";

/** How the main agent does the search: itself, through `explore`, or through a `fork` of itself. */
export type IsolationArm = "main" | "explore" | "fork";

export interface WireMessage {
  role: string;
  content?: unknown;
}

/** The file the main agent reads before the search: earlier work, so its context (and a fork's prefix) is not empty. */
export const orientationFile = "src/index.ts";
/** Files the search reads in full after grepping (the first distinct non-test hits). */
const filesRead = 3;
const hitPattern = /([\w./-]+\.ts):(\d+): ([^\n]*)/g;

/**
 * The scripted model of the isolation bench, as a function of the wire body (what a real model
 * would read): the searcher — the main agent in arm `main`, the child otherwise — greps for the
 * query's identifier, reads the first three files it hit and answers with the hits; a delegating
 * main agent makes one `task` call and repeats the child's answer. Deterministic: the turns depend
 * only on the tool results, which depend only on the code base.
 */
export function createScriptedSearcher(query: IsolationQuery, arm: IsolationArm, exploreMarker: string): (body: { messages: WireMessage[] }) => ScriptedTurn {
  return (body) => {
    const messages = body.messages;
    const system = text(messages[0]);
    const start = messages.findLastIndex((message) => message.role === "user" && text(message).startsWith(query.question));
    const isChild = system.includes(exploreMarker) || start > 1;
    const steps = messages.slice(start + 1).filter((message) => message.role === "assistant").length;
    if (isChild) return search(messages, query, steps);
    if (steps === 0) return { toolCalls: [{ name: "read_file", arguments: { path: orientationFile } }] };
    if (arm === "main") return search(messages, query, steps - 1);
    if (steps === 1) return { toolCalls: [{ name: "task", arguments: { agent: arm, description: `find ${query.pattern}`, prompt: query.question } }] };
    return `From the sub-agent: ${lastToolResult(messages).slice(0, 600)}`;
  };
}

function search(messages: readonly WireMessage[], query: IsolationQuery, step: number): ScriptedTurn {
  if (step === 0) return { toolCalls: [{ name: "grep", arguments: { pattern: query.pattern, include: "*.ts" } }] };
  const hits = grepHits(messages, query.pattern);
  if (step === 1) {
    const files = [...new Set(hits.filter((hit) => !hit.file.endsWith(".test.ts")).map((hit) => hit.file))].slice(0, filesRead);
    if (files.length > 0) return { toolCalls: files.map((path) => ({ name: "read_file", arguments: { path } })) };
  }
  const lines = hits.filter((hit) => !hit.file.endsWith(".test.ts")).slice(0, 8).map((hit) => `- ${hit.file}:${hit.line}: ${hit.text.trim().slice(0, 100)}`);
  return lines.length === 0 ? `Nothing in the code base mentions ${query.pattern}.` : `${query.pattern} is handled here:\n${lines.join("\n")}`;
}

/** The hits of the searcher's grep call: `path:line: text` lines that contain the pattern. */
function grepHits(messages: readonly WireMessage[], pattern: string): Array<{ file: string; line: number; text: string }> {
  for (const message of messages) {
    if (message.role !== "tool") continue;
    const hits = [...text(message).matchAll(hitPattern)]
      .map((match) => ({ file: match[1]!, line: Number(match[2]), text: match[3]! }))
      .filter((hit) => hit.text.includes(pattern));
    if (hits.length > 0) return hits;
  }
  return [];
}

function lastToolResult(messages: readonly WireMessage[]): string {
  return text(messages.findLast((message) => message.role === "tool"));
}

function text(message: WireMessage | undefined): string {
  return typeof message?.content === "string" ? message.content : "";
}
