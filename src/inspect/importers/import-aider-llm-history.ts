import type { AssistantMessage, Message, MessageOrigin } from "../../types/index.js";
import type { ImportedCall, ImportedTranscript, ImportResult } from "../imported-transcript.js";
import { createImportedRequest } from "./create-imported-request.js";
import { transcriptIdFromFile } from "./transcript-id-from-file.js";

/** `TO LLM 2025-…` / `LLM RESPONSE 2025-…`: the header aider writes before each logged block. */
const blockHeader = /^(TO LLM|LLM RESPONSE) (\d{4}-\d{2}-\d{2}T[\d:.]+)\s*$/;
const roleLine = /^(SYSTEM|USER|ASSISTANT|TOOL)(?: (.*))?$/;

interface Block {
  kind: "TO LLM" | "LLM RESPONSE";
  timestamp: string;
  lines: string[];
}

/**
 * Imports aider's `--llm-history-file`: every request in full (`TO LLM`, messages separated by
 * `-------`, each line prefixed with its role) and the reply that followed (`LLM RESPONSE`, lines
 * prefixed `ASSISTANT`). Since every request is written out whole, this is exact prefix data; aider
 * logs neither usage nor the model, and sends no tool schemas (edits are text).
 */
export function importAiderLlmHistory(text: string, file: string): ImportResult {
  const blocks = readBlocks(text);
  if (!blocks.some((block) => block.kind === "TO LLM")) return { transcripts: [], problems: [{ file, reason: 'expected aider\'s LLM history: "TO LLM <time>" blocks' }] };
  const id = transcriptIdFromFile(file).replace(/\.(llm\.)?history$/i, "") || "aider";
  const calls: ImportedCall[] = [];
  let previous: Message[] = [];
  for (const [index, block] of blocks.entries()) {
    if (block.kind !== "TO LLM") continue;
    const messages = readMessages(block, `${id}:${calls.length}`, previous);
    const [first, ...rest] = messages;
    const request = first?.role === "system" ? createImportedRequest({ system: first.content, messages: rest }) : createImportedRequest({ messages });
    const call: ImportedCall = { request, source: { file } };
    const next = blocks[index + 1];
    if (next?.kind === "LLM RESPONSE") call.response = responseOf(next, `${id}:${calls.length}:response`);
    // The next request repeats this one and then the reply, so the reply keeps its id there too.
    previous = call.response === undefined ? messages : [...messages, call.response];
    calls.push(call);
  }
  const transcript: ImportedTranscript = { id, format: "aider", file, calls, toolsKnown: true, systemKnown: true };
  transcript.notes = ["aider's LLM history records each request in full but no usage and no model: give prices for a cost (the `pricing` option of inspectFiles; CLI: --pricing <model>)."];
  return { transcripts: [transcript], problems: [] };
}

function readBlocks(text: string): Block[] {
  const blocks: Block[] = [];
  for (const line of text.replace(/\r\n/g, "\n").split("\n")) {
    const header = blockHeader.exec(line);
    if (header !== null) blocks.push({ kind: header[1] as Block["kind"], timestamp: header[2]!, lines: [] });
    else blocks.at(-1)?.lines.push(line);
  }
  return blocks;
}

/**
 * The request's messages. A line without a role prefix continues the previous line (content that
 * aider wrote with embedded carriage returns, or a format change); a message identical to the one at
 * the same position of the previous request keeps that object and id, so ids are stable along the prefix.
 */
function readMessages(block: Block, idPrefix: string, previous: readonly Message[]): Message[] {
  const raw: Array<{ role: string; lines: string[] }> = [];
  for (const line of block.lines) {
    if (line === "-------") {
      raw.push({ role: "", lines: [] });
      continue;
    }
    const current = raw.at(-1);
    if (current === undefined) continue;
    const match = roleLine.exec(line);
    if (match !== null && (current.role === "" || current.role === match[1])) {
      current.role = match[1]!;
      current.lines.push(match[2] ?? "");
    } else if (current.lines.length > 0) current.lines[current.lines.length - 1] += `\n${line}`;
  }
  return raw
    .filter((message) => message.role !== "")
    .map((message, index) => {
      const content = contentPartsText(message.lines.join("\n"));
      const before = previous[index];
      if (before !== undefined && before.role === roleOf(message.role) && textOf(before) === content) return before;
      return messageOf(message.role, content, `${idPrefix}.${index}`, block.timestamp);
    });
}

/**
 * aider prints a message whose content is a list of parts (`--cache-prompts` marks them with
 * `cache_control`) one `key: value` line per field: `type: text`, `text: …`, `cache_control: {…}`.
 * The model saw only the text, so that is what is kept.
 */
function contentPartsText(content: string): string {
  if (!content.startsWith("type: text\ntext: ")) return content;
  const texts: string[] = [];
  for (const part of content.split(/^type: text\n/m).slice(1)) {
    const text = /^text: ([\s\S]*?)(?:\ncache_control: \{[^\n]*\})?\n?$/.exec(part);
    if (text === null) return content;
    texts.push(text[1]!);
  }
  return texts.join("");
}

/** The text aider printed for a message: assistant content is stored as text blocks. */
function textOf(message: Message): string | undefined {
  if (message.role === "system" || message.role === "user") return message.content;
  if (message.role !== "assistant") return undefined;
  return message.content.map((block) => (block.type === "text" ? block.text : "")).join("");
}

function roleOf(role: string): Message["role"] {
  return role === "SYSTEM" ? "system" : role === "ASSISTANT" ? "assistant" : "user";
}

function messageOf(role: string, content: string, id: string, createdAt: string): Message {
  const origin: MessageOrigin = role === "SYSTEM" ? "harness" : role === "ASSISTANT" ? "model" : "user";
  const meta = { id, origin, createdAt };
  if (role === "SYSTEM") return { role: "system", content, meta };
  if (role === "ASSISTANT") return { role: "assistant", content: content === "" ? [] : [{ type: "text", text: content }], meta };
  return { role: "user", content, meta };
}

function responseOf(block: Block, id: string): AssistantMessage {
  const lines = block.lines.map((line) => (line.startsWith("ASSISTANT ") ? line.slice("ASSISTANT ".length) : line === "ASSISTANT" ? "" : line));
  while (lines.length > 0 && lines.at(-1) === "") lines.pop();
  const text = lines.join("\n");
  return { role: "assistant", content: text === "" ? [] : [{ type: "text", text }], meta: { id, origin: "model", createdAt: block.timestamp } };
}
