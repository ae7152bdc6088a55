import type { AssistantMessage, Message, ToolDefinition, ToolMessage } from "../../types/index.js";

/**
 * mini-swe-agent has no native tool calls: the model writes one ```bash block and the agent
 * answers with a user message `<returncode>…</returncode><output>…</output>`. Replay rewrites each
 * such pair into the standard-roles layout ctxkit uses — an assistant `bash` tool call with
 * `{command}` and a `tool` result — because context policies act on tool results (budgets,
 * clearing, summaries) and would otherwise see every observation as a user turn they must keep.
 * The command moves out of the text into the arguments, so it is sent once, as a tool call would.
 */
export const bashToolDefinition: ToolDefinition = {
  name: "bash",
  description: "Run one shell command (or commands joined with && or ||) in the repository and return its exit code and output.",
  parameters: {
    type: "object",
    properties: { command: { type: "string", description: "The command to run." } },
    required: ["command"],
  },
};

// mini-swe-agent's own action regex is `r"```bash\s*\n(.*?)\n```"` (DOTALL); an observation only
// follows a turn where it found exactly one such block. It is scanned for with indexOf, not that
// regex: its lazy body rescans to the end of the text for every unclosed opener, which is quadratic
// in a recorded reply full of them.
const opener = "```bash";
const closer = "\n```";

/**
 * Converts every assistant turn followed by an observation (a user message whose origin is
 * `tool`) into a tool call and a tool result; other messages (format errors, the task, the final
 * submission) stay as they are. Indices are preserved: one message in, one message out.
 */
export function convertMiniSweAgentCommands(messages: readonly Message[]): Message[] {
  return messages.map((message, index) => {
    const next = messages[index + 1];
    if (message.role === "assistant" && isObservation(next)) return toToolCall(message) ?? message;
    const previous = messages[index - 1];
    if (isObservation(message) && previous?.role === "assistant" && commandOf(previous) !== undefined) {
      return toToolResult(message, toolCallIdOf(previous));
    }
    return message;
  });
}

function isObservation(message: Message | undefined): message is Message & { role: "user" } {
  return message?.role === "user" && message.meta.origin === "tool";
}

interface FoundCommand {
  command: string;
  partIndex: number;
  /** The block's span in that text part, fences included. */
  start: number;
  end: number;
}

function commandOf(message: AssistantMessage): FoundCommand | undefined {
  for (const [partIndex, part] of message.content.entries()) {
    if (part.type !== "text") continue;
    const blocks = findBashBlocks(part.text, 2);
    if (blocks.length !== 1) continue;
    const block = blocks[0]!;
    return { command: block.command, partIndex, start: block.start, end: block.end };
  }
  return undefined;
}

/** Up to `limit` blocks as the regex above finds them, in one pass over the text. */
export function findBashBlocks(text: string, limit: number): Array<Omit<FoundCommand, "partIndex">> {
  const blocks: Array<Omit<FoundCommand, "partIndex">> = [];
  let from = 0;
  while (blocks.length < limit) {
    const start = text.indexOf(opener, from);
    if (start === -1) break;
    // `\s*\n`: the whitespace after the opener must hold a line break; the body starts after the last.
    let cursor = start + opener.length;
    let firstBreak = -1;
    let bodyStart = -1;
    while (cursor < text.length && /\s/.test(text[cursor]!)) {
      if (text[cursor] === "\n") {
        if (firstBreak === -1) firstBreak = cursor;
        bodyStart = cursor + 1;
      }
      cursor += 1;
    }
    if (bodyStart === -1) {
      from = start + 1;
      continue;
    }
    // The regex backtracks to an earlier line break only when the body is blank ("```bash\n\n```").
    let close = text.indexOf(closer, bodyStart);
    if (close === -1) close = text.indexOf(closer, firstBreak + 1);
    // No closer after this opener means none after any later opener either.
    if (close === -1) break;
    const end = close + closer.length;
    blocks.push({ command: text.slice(Math.min(bodyStart, close), close).trim(), start, end });
    from = end;
  }
  return blocks;
}

function toolCallIdOf(message: AssistantMessage): string {
  return `${message.meta.id}:bash`;
}

function toToolCall(message: AssistantMessage): AssistantMessage | undefined {
  const found = commandOf(message);
  if (found === undefined) return undefined;
  const args = { command: found.command };
  const content = message.content.flatMap((part, partIndex) => {
    if (part.type !== "text" || partIndex !== found.partIndex) return [part];
    const text = `${part.text.slice(0, found.start)}${part.text.slice(found.end)}`.trim();
    return text === "" ? [] : [{ ...part, text }];
  });
  content.push({ type: "tool_call", id: toolCallIdOf(message), name: "bash", argumentsText: JSON.stringify(args), arguments: args });
  return { ...message, content, stopReason: "tool_calls" };
}

function toToolResult(message: Message & { role: "user" }, toolCallId: string): ToolMessage {
  return { role: "tool", toolCallId, toolName: "bash", content: message.content, isError: !message.content.startsWith("<returncode>0</returncode>"), meta: message.meta };
}
