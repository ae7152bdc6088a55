import { untrustedSourcesOf, type ContextTaintOptions } from "../context/external-content/message-provenance.js";
import type { Message, UntrustedSource } from "../types/index.js";

export type { ContextTaintOptions };

/** One message that makes the context untrusted, as the confirmation names it. */
export interface ContextTaintSource extends UntrustedSource {
  /** The message carrying it (a tool result, a summary, a note…). */
  messageId: string;
  /** The tool's call number in the session, when the message is a tagged tool result. */
  callNumber?: number;
  /** Set when the message is derived (a summary, a recall…): what it was derived as. */
  via?: string;
}

/**
 * The taint on a context: every message whose metadata says it carries untrusted material. When this
 * is not empty, a call of a tool that is not read-only needs the person's confirmation of that exact
 * call (see `createRuntimeGuard`).
 */
export function findContextTaint(messages: readonly Message[], options: ContextTaintOptions = {}): ContextTaintSource[] {
  const found: ContextTaintSource[] = [];
  for (const message of messages) {
    for (const source of untrustedSourcesOf(message, options)) {
      const callNumber = message.role === "tool" ? message.meta.external?.callNumber : undefined;
      const via = message.meta.derived?.kind;
      found.push({ ...source, messageId: message.meta.id, ...(callNumber === undefined ? {} : { callNumber }), ...(via === undefined ? {} : { via }) });
    }
  }
  return found;
}

/** The `messageId` of a taint that is not in a message: a tool's definition from an untrusted party. */
export const toolDefinitionsId = "tools";

/** The `messageId` of a taint in the system prompt: a part of it from an untrusted party (an untrusted workspace's AGENTS.md). */
export const systemPromptId = "system";

/** How the taint reads in a confirmation and in the refusal the model gets: "web_fetch result #1 (from outside)". */
export function describeContextTaint(sources: readonly ContextTaintSource[], limit = 4): string {
  const described = new Set<string>();
  for (const source of sources) {
    const where =
      source.messageId === toolDefinitionsId || source.messageId === systemPromptId
        ? source.source
        : source.via === "mcp_tools"
          ? source.source
          : source.via && source.via !== "preview"
            ? `a ${source.via} of ${source.source} content`
            : source.callNumber === undefined
              ? `${source.source} content`
              : `${source.source} result #${source.callNumber}`;
    described.add(`${where} (${source.trust === "external" ? "from outside" : "from a workspace you have not trusted"})`);
  }
  const list = [...described];
  return list.length <= limit ? list.join(", ") : `${list.slice(0, limit).join(", ")} and ${list.length - limit} more`;
}
