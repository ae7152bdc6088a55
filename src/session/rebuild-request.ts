import { type Message, type SystemPrompt, type ToolDefinition, type UserMessage, SessionError } from "../types/index.js";
import type { LoadedSession } from "./loaded-session.js";

/** The parts of one model call, as recorded: enough to rebuild its wire body byte for byte. */
export interface RebuiltRequest {
  system: SystemPrompt;
  tools: ToolDefinition[];
  messages: Message[];
  tail: UserMessage | undefined;
  provider: string;
  model: string;
}

/**
 * What request `requestIndex` of a session sent: the prefix in force when it was recorded, the
 * first `messageCount` trajectory messages (append-only, so a prefix of the stored list) and its tail.
 * Pure; the objects are the loaded ones (not copies), so serialising them gives the stored bytes.
 */
export function rebuildRequest(session: LoadedSession, requestIndex: number): RebuiltRequest {
  const request = session.requests[requestIndex];
  const prefix = request === undefined ? undefined : session.prefixes[request.prefixIndex];
  if (request === undefined || prefix === undefined) {
    const range = session.requests.length === 0 ? "it has none" : `valid indexes are 0–${session.requests.length - 1}`;
    throw new SessionError("request_not_found", `Session ${session.header.id} has no request ${requestIndex}: ${range}.`);
  }
  return {
    system: prefix.system,
    tools: prefix.tools,
    messages: (session.views[request.viewIndex] ?? session.messages).slice(0, request.messageCount),
    tail: request.tail ?? undefined,
    provider: request.provider,
    model: request.model,
  };
}
