import type { Message, ToolCallPart, ToolMessage } from "../../types/index.js";

/** One tool call of the trajectory with its result (absent while the call's turn is still running). */
export interface ToolCallRecord {
  call: ToolCallPart;
  result?: ToolMessage;
  /** Index of the assistant message that made the call. */
  messageIndex: number;
}

/** Every tool call in the trajectory, in call order, paired with its result by call id. Pure. */
export function collectToolCalls(messages: readonly Message[], from = 0): ToolCallRecord[] {
  const records: ToolCallRecord[] = [];
  const byId = new Map<string, ToolCallRecord>();
  for (let index = from; index < messages.length; index++) {
    const message = messages[index]!;
    if (message.role === "assistant") {
      for (const part of message.content) {
        if (part.type !== "tool_call") continue;
        const record: ToolCallRecord = { call: part, messageIndex: index };
        records.push(record);
        byId.set(part.id, record);
      }
    } else if (message.role === "tool") {
      const record = byId.get(message.toolCallId);
      if (record && record.result === undefined) record.result = message;
    }
  }
  return records;
}
