import type { ContextPolicy } from "../context-policy.js";
import { ContextError, type Message } from "../../types/index.js";
import { findMarkers } from "./find-markers.js";

/**
 * Role discipline (the seed's "结构化角色"): external content is only ever in `tool` messages. Before
 * each call — after every other policy's edits (order 1000), so a skill, a note, a summary or any
 * policy that copied a tagged block into a user or system message is caught before the model sees
 * it — the run ends with `external_content_outside_tool`. Blocks are recognised by the nonces the
 * source tags issued (`meta.external.nonce`), never by text alone.
 */
export function createRoleDiscipline(): ContextPolicy {
  const checked = new WeakSet<Message>();
  return {
    name: "role-discipline",
    // A child reads external content too: its results are data the same way.
    inherit: "share",
    order: 1000,
    prepareContext({ messages }) {
      const nonces = new Set(messages.flatMap((message) => (message.role === "tool" && message.meta.external?.nonce ? [message.meta.external.nonce] : [])));
      for (const message of messages) {
        // The model may quote a block back; its own turns are not a channel into the user's or system's role.
        if (message.role === "tool" || message.role === "assistant" || checked.has(message)) continue;
        const leaked = nonces.size === 0 ? undefined : findMarkers(message.content).find((marker) => marker.kind === "external" && marker.id !== undefined && nonces.has(marker.id));
        if (leaked) {
          throw new ContextError(
            "external_content_outside_tool",
            `A ${message.role} message (${message.meta.id}) contains the external block with id "${leaked.id}"; external content may only appear in tool results. ` +
              "Whatever put it there (a skill, a note, a summary, a policy) must pass it as a tool result, or quote it through neutraliseMarkers.",
          );
        }
        if (nonces.size > 0) checked.add(message);
      }
      return undefined;
    },
  };
}
