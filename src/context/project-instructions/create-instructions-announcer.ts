import type { ContextPolicy } from "../context-policy.js";
import type { Provenance } from "../../types/index.js";

export const instructionsAnnouncerPolicyName = "project-instructions";

export interface InstructionsAnnouncerOptions {
  /**
   * The announcement owed to the model, if the project instructions changed since it last heard of
   * them (the CLI reads AGENTS.md / CLAUDE.md again); undefined when nothing changed. Called once per
   * message the person sends.
   */
  takeChange: () => string | undefined;
  /** Told when a message carries an announcement (the CLI says so to the person). */
  onAnnounce?: (announcement: string) => void;
  /**
   * Where the instructions come from when the user has not trusted it (an untrusted workspace's
   * AGENTS.md): a message carrying an announcement carries this provenance, so the runtime guard asks.
   */
  provenance?: Provenance;
}

/**
 * Changed project instructions, announced in the trajectory rather than in the system prompt (which
 * a resumed session keeps byte for byte, so the cache stays valid): the announcement goes before the
 * person's message, once, when the message is created and frozen.
 */
export function createInstructionsAnnouncer(options: InstructionsAnnouncerOptions): ContextPolicy {
  return {
    name: instructionsAnnouncerPolicyName,
    // A child gets its task from its parent, not from the person: it has nothing to announce.
    inherit: "never",
    processUserMessage(message) {
      const change = options.takeChange();
      if (change === undefined) return message;
      options.onAnnounce?.(change);
      return { ...message, content: `${change}\n\n${message.content}`, ...(options.provenance ? { meta: { ...message.meta, provenance: options.provenance } } : {}) };
    },
  };
}
