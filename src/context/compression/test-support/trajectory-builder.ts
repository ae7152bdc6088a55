import type { Message, ToolMessage, Usage } from "../../../types/index.js";
import type { ContextState } from "../../context-policy.js";
import { createStablePrefix } from "../../stable-prefix.js";

const createdAt = "2026-01-01T00:00:00.000Z";

export function userMessage(id: string, content: string, origin: "user" | "harness" = "user"): Message {
  return { role: "user", content, meta: { id, origin, createdAt } };
}

export function assistantMessage(id: string, text: string, calls: Array<{ id: string; name: string; arguments: Record<string, unknown> }> = []): Message {
  return {
    role: "assistant",
    content: [
      ...(text === "" ? [] : [{ type: "text" as const, text }]),
      ...calls.map((call) => ({ type: "tool_call" as const, id: call.id, name: call.name, argumentsText: JSON.stringify(call.arguments), arguments: call.arguments })),
    ],
    meta: { id, origin: "model", createdAt },
  };
}

export function toolMessage(id: string, toolCallId: string, toolName: string, content: string, isError = false): ToolMessage {
  return { role: "tool", toolCallId, toolName, content, isError, meta: { id, origin: "tool", createdAt } };
}

/** A file listing of about `lines` lines with paths, names and numbers worth keeping. */
export function sourceFile(name: string, lines: number): string {
  return Array.from({ length: lines }, (_, index) => `${String(index + 1).padStart(6)}\tdef handler_${name}_${index}(request): return process_payment(request.body, timeout=${index * 10} ms)  # src/${name}/module_${index}.py`).join("\n");
}

/** A conversation of `turns` read_file calls over files of `lines` lines each, after one request. */
export function readingSession(turns: number, lines: number): Message[] {
  const messages: Message[] = [userMessage("u0", "Fix the payment callback bug in src/payment. Never change the public API.")];
  for (let turn = 1; turn <= turns; turn += 1) {
    messages.push(assistantMessage(`a${turn}`, `I will read file ${turn}.`, [{ id: `c${turn}`, name: "read_file", arguments: { path: `src/payment/file_${turn}.py` } }]));
    messages.push(toolMessage(`t${turn}`, `c${turn}`, "read_file", sourceFile(`f${turn}`, lines)));
  }
  return messages;
}

export function contextState(messages: readonly Message[], overrides: Partial<ContextState> = {}): ContextState {
  return {
    messages,
    prefix: createStablePrefix("You are a coding agent.", []),
    iteration: 1,
    now: new Date(createdAt),
    overflow: false,
    signal: new AbortController().signal,
    ...overrides,
  };
}

export function usageOf(inputTokens: number): Usage {
  return { inputTokens, cachedInputTokens: 0, cacheWriteTokens: 0, outputTokens: 0, reasoningTokens: 0 };
}
