import { statusOpenTag } from "../../context/status-bar/status-message.js";
import type { Message, ModelRequest, SystemPrompt, ToolDefinition, UserMessage } from "../../types/index.js";

export interface ImportedRequestParts {
  /** The system prompt (text, or both parts for ctxkit sessions); "" when the format does not record it. */
  system?: string | SystemPrompt;
  tools?: ToolDefinition[];
  messages: Message[];
  tail?: UserMessage;
}

/**
 * A ModelRequest as recorded: no cache breakpoints or settings, since transcripts do not keep them.
 * A last user message that is a ctxkit status (`<agent_status>…`) is the request's tail: in
 * `replace` mode ctxkit sends a fresh one at the end of every request and never keeps the old one,
 * so counted as history it would read as an edited message on every call. (A logged request body
 * keeps no origin, so the tag is all there is to go by; tool output sits in tool messages, never
 * last in the user role.)
 */
export function createImportedRequest(parts: ImportedRequestParts): ModelRequest {
  const tail = parts.tail ?? statusTailOf(parts.messages);
  const request: ModelRequest = {
    system: typeof parts.system === "object" ? parts.system : { staticText: parts.system ?? "" },
    tools: parts.tools ?? [],
    messages: parts.tail === undefined && tail !== undefined ? parts.messages.slice(0, -1) : parts.messages,
    cacheBreakpoints: [],
    settings: {},
  };
  if (tail !== undefined) request.tail = tail;
  return request;
}

function statusTailOf(messages: readonly Message[]): UserMessage | undefined {
  const last = messages.at(-1);
  if (last?.role !== "user" || !last.content.startsWith(statusOpenTag)) return undefined;
  if (last.meta.origin !== "harness") last.meta.origin = "harness";
  return last;
}
