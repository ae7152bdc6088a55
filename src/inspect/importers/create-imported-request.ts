import type { Message, ModelRequest, SystemPrompt, ToolDefinition, UserMessage } from "../../types/index.js";

export interface ImportedRequestParts {
  /** The system prompt (text, or both parts for ctxkit sessions); "" when the format does not record it. */
  system?: string | SystemPrompt;
  tools?: ToolDefinition[];
  messages: Message[];
  tail?: UserMessage;
}

/** A ModelRequest as recorded: no cache breakpoints or settings, since transcripts do not keep them. */
export function createImportedRequest(parts: ImportedRequestParts): ModelRequest {
  const request: ModelRequest = {
    system: typeof parts.system === "object" ? parts.system : { staticText: parts.system ?? "" },
    tools: parts.tools ?? [],
    messages: parts.messages,
    cacheBreakpoints: [],
    settings: {},
  };
  if (parts.tail !== undefined) request.tail = parts.tail;
  return request;
}
