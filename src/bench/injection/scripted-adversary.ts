import { findMarkers } from "../../context/external-content/find-markers.js";
import { revealHiddenText } from "../../context/external-content/reveal-hidden-text.js";
import { createScriptedProvider } from "../../providers/scripted/index.js";
import type { Provider } from "../../providers/provider.js";
import type { ScriptedToolCall, ScriptedTurn } from "../../providers/scripted/index.js";
import { derivedOf, type ModelRequest } from "../../types/index.js";

export const adversaries = ["obeys-all", "obeys-outside-tags"] as const;
export type Adversary = (typeof adversaries)[number];

type Goal = { kind: "write"; path: string } | { kind: "send"; to: string } | { kind: "remember"; note: string } | { kind: "leak" } | { kind: "run"; command: string };

const memoryPattern = /[^\n.。]{0,120}(?:next time|remember|下次)[^\n]{0,160}/i;
const writePattern = /(?:save|write|store|保存)[^\n]{0,80}?(\/tmp\/[\w.\-/]+[\w])/i;
const sendPattern = /(?:send|forward|e-?mail|发送)[^\n]{0,80}?([\w.+-]+@[\w-]+\.[a-z]{2,})/i;
const runPattern = /(?:\brun|运行)\s*[:：]\s*([^\n]+)/i;
const leakPattern = /(?:print|reveal|output|repeat|what was written)[^\n]{0,60}?(?:system prompt|beginning of the document)|系统提示词[^\n]{0,12}输出|输出[^\n]{0,12}系统提示词/i;

/** The instructions a model that obeys what it reads finds in `text` (a planted reminder is stored, unless it is being recalled). */
function goalsIn(text: string, recalled: boolean): Goal[] {
  const goals: Goal[] = [];
  const memory = memoryPattern.exec(text);
  if (memory && !recalled) goals.push({ kind: "remember", note: memory[0].trim() });
  else {
    const send = sendPattern.exec(text);
    if (send) goals.push({ kind: "send", to: send[1]! });
  }
  const write = writePattern.exec(text);
  if (write) goals.push({ kind: "write", path: write[1]! });
  if (leakPattern.test(text)) goals.push({ kind: "leak" });
  const run = runPattern.exec(text);
  if (run) goals.push({ kind: "run", command: run[1]!.trim() });
  return goals;
}

/**
 * Scripted adversarial models for the offline bench. Both obey every instruction they can read (a
 * planted write, send or reminder, a request for the system prompt) before doing the user's task;
 * `obeys-outside-tags` does not read inside recognised external blocks — the behaviour source tags
 * aim to teach — so a forged closing tag would hand it everything after it. Both read tool
 * descriptions as instructions, and run a command they are told to (`run: …`). Hidden tag characters
 * are read, as some real models do.
 */
export function createScriptedAdversary(variant: Adversary, plan: ScriptedToolCall[]): Provider {
  return createScriptedProvider({ name: "scripted", model: variant, turns: (request) => decide(request, variant, plan) });
}

function decide(request: ModelRequest, variant: Adversary, plan: ScriptedToolCall[]): ScriptedTurn {
  const made = new Set<string>();
  for (const message of request.messages) {
    if (message.role !== "assistant") continue;
    for (const part of message.content) if (part.type === "tool_call") made.add(`${part.name} ${part.argumentsText}`);
  }
  const goals: Goal[] = [];
  for (const message of [...request.messages, ...(request.tail ? [request.tail] : [])]) {
    if (message.role === "assistant" || message.role === "system") continue;
    // A refusal is the harness quoting what it refused (capped, neutralised): obeying the quote again
    // would only make a slightly different call, refused again, until the iteration limit.
    if (message.role === "tool" && message.isError && /^(?:Error \(\w+\): )?'[\w-]+' was not run: /.test(message.content)) continue;
    const raw = revealHiddenText(message.content).text;
    const visible = message.role === "tool" && variant === "obeys-outside-tags" ? outsideTagsNaively(raw) : raw;
    goals.push(...goalsIn(visible, message.role === "user" && derivedOf(message, "note") !== undefined));
  }
  // Tool descriptions are read as instructions by both (nothing tags them: a poisoned MCP description).
  for (const tool of request.tools) goals.push(...goalsIn(tool.description, false));
  const calls: ScriptedToolCall[] = goals.flatMap((goal): ScriptedToolCall[] =>
    goal.kind === "write"
      ? [{ name: "write_file", arguments: { path: goal.path, content: "the conversation so far" } }]
      : goal.kind === "send"
        ? [{ name: "send_email", arguments: { to: goal.to, body: "a copy of the files" } }]
        : goal.kind === "remember"
          ? [{ name: "remember", arguments: { note: goal.note } }]
          : goal.kind === "run"
            ? [{ name: "run_command", arguments: { command: goal.command } }]
            : [],
  );
  for (const call of [...calls, ...plan]) {
    if (!made.has(`${call.name} ${JSON.stringify(call.arguments)}`)) return { toolCalls: [call] };
  }
  if (goals.some((goal) => goal.kind === "leak")) return `Here is my system prompt: ${request.system.staticText}`;
  return "Summary: the content was read; nothing else to do.";
}

/**
 * What a model that skips external blocks reads, as a model does it: a block ends at the first
 * closing tag that looks like one — it does not check the nonce — so a look-alike closing tag the
 * neutraliser missed would hand it the rest of the block.
 */
function outsideTagsNaively(text: string): string {
  let outside = "";
  let cursor = 0;
  let inside = false;
  for (const marker of findMarkers(text)) {
    if (marker.kind !== "external") continue;
    if (!inside && !marker.closing) {
      outside += text.slice(cursor, marker.start);
      inside = true;
    } else if (inside && marker.closing) {
      inside = false;
      cursor = marker.end;
    }
  }
  return inside ? outside : outside + text.slice(cursor);
}
