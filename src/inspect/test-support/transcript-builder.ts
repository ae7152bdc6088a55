import type { AssistantMessage, AssistantPart, Message, MessageOrigin, ModelRequest, ToolDefinition, ToolMessage, UserMessage } from "../../types/index.js";
import type { ImportedCall, ImportedTranscript } from "../imported-transcript.js";

/** Small hand-written transcripts for analysis and findings tests. */
let counter = 0;
const meta = (origin: MessageOrigin) => ({ id: `m${++counter}`, origin, createdAt: "" });

export const user = (content: string, origin: MessageOrigin = "user"): UserMessage => ({ role: "user", content, meta: meta(origin) });
export const assistant = (text: string, extra: AssistantPart[] = []): AssistantMessage => ({
  role: "assistant",
  content: [...(text === "" ? [] : [{ type: "text" as const, text }]), ...extra],
  meta: meta("model"),
});
export const toolCall = (id: string, name: string, args: Record<string, unknown>): AssistantPart => ({ type: "tool_call", id, name, argumentsText: JSON.stringify(args), arguments: args });
export const thinking = (text: string): AssistantPart => ({ type: "thinking", thinking: text });
export const toolResult = (toolCallId: string, toolName: string, content: string): ToolMessage => ({ role: "tool", toolCallId, toolName, content, isError: false, meta: meta("tool") });

export const tool = (name: string): ToolDefinition => ({ name, description: `The ${name} tool.`, parameters: { type: "object", properties: { query: { type: "string" } } } });

export function request(system: string, messages: Message[], tools: ToolDefinition[] = [], tail?: UserMessage): ModelRequest {
  return { system: { staticText: system }, tools, messages, ...(tail === undefined ? {} : { tail }), cacheBreakpoints: [], settings: {} };
}

/** A transcript of the given requests, in order; `responses[i]` is call i's answer when given. */
export function transcriptOf(requests: ModelRequest[], options: { model?: string; responses?: Array<AssistantMessage | undefined>; calls?: Array<Partial<ImportedCall>> } = {}): ImportedTranscript {
  const calls: ImportedCall[] = requests.map((request, index) => {
    const call: ImportedCall = { request, source: { file: "test.jsonl", line: index + 1 }, ...options.calls?.[index] };
    const response = options.responses?.[index];
    if (response !== undefined) call.response = response;
    return call;
  });
  const transcript: ImportedTranscript = { id: "test", format: "openai-log", file: "test.jsonl", calls, toolsKnown: true, systemKnown: true };
  if (options.model !== undefined) transcript.model = options.model;
  return transcript;
}

/** Requests of a growing conversation: call i sees `messages` up to (not including) the i-th assistant message. */
export function appendOnlyRequests(system: string, messages: Message[], tools: ToolDefinition[] = []): ModelRequest[] {
  return messages.flatMap((message, index) => (message.role === "assistant" ? [request(system, messages.slice(0, index), tools)] : []));
}
