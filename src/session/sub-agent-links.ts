import { addUsage, emptyUsage, toolCallsOf, type Message, type SubAgentRun, type Usage } from "../types/index.js";

/** One `task` call of a session and the child it ran. */
export interface SubAgentLink {
  toolCallId: string;
  /** The call's `description` argument (a short label), when it had one. */
  description?: string;
  run: SubAgentRun;
}

/**
 * The sub-agents a session's messages ran, in call order: the links the loop stored on tool
 * messages (`meta.subAgent`), with each call's label. Pure; reads metadata, never the result text.
 */
export function collectSubAgentLinks(messages: readonly Message[]): SubAgentLink[] {
  const labels = new Map<string, string>();
  const links: SubAgentLink[] = [];
  for (const message of messages) {
    if (message.role === "assistant") {
      for (const call of toolCallsOf(message)) {
        const label = (call.arguments as { description?: unknown } | undefined)?.description;
        if (typeof label === "string") labels.set(call.id, label);
      }
    }
    if (message.role === "tool" && message.meta.subAgent) {
      const description = labels.get(message.toolCallId);
      links.push({ toolCallId: message.toolCallId, ...(description !== undefined ? { description } : {}), run: message.meta.subAgent });
    }
  }
  return links;
}

/** The tokens all linked sub-agents used together. */
export function sumSubAgentUsage(links: readonly SubAgentLink[]): Usage {
  return links.reduce((total, link) => addUsage(total, link.run.usage), emptyUsage());
}
