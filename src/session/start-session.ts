import { createStablePrefix } from "../context/stable-prefix.js";
import { CtxkitError, type Message, type SystemPrompt, type ToolDefinition } from "../types/index.js";
import type { SessionPrefix } from "./session-records.js";
import type { SessionStore } from "./session-store.js";
import { warningsNeedingRepair, type SessionWarning } from "./loaded-session.js";
import type { SessionWriter } from "./session-writer.js";

export interface StartSessionOptions {
  /** Resume this session when given; otherwise a new one is created. */
  id?: string;
  system: string | SystemPrompt;
  tools: readonly ToolDefinition[];
  provider: { name: string; model: string };
  workspace?: string;
  clock?: () => Date;
  /**
   * Resume even when the loader found duplicated message lines or stray usage records, continuing
   * from the context with them left out (the file keeps them). Without it such a resume throws
   * `session_needs_repair`, so nothing is continued from a context the user has not seen.
   */
  repair?: boolean;
}

export interface StartedSession {
  session: SessionWriter;
  /** The stored trajectory to continue from (empty for a new session). Pass it to `createAgent`. */
  messages: Message[];
  resumed: boolean;
  /** Torn or unterminated last lines found (and repaired) while opening. */
  warnings: SessionWarning[];
  /** Set when the resumed session was recorded with a different system prompt or tools. */
  prefixChanged: boolean;
}

/**
 * Creates a session, or resumes one so the agent continues with the same bytes: the stored
 * messages are returned as they were sent, and a changed system prompt or tool set is recorded
 * as a declared prefix change (a cache break the caller caused) rather than hidden.
 */
export async function startSession(store: SessionStore, options: StartSessionOptions): Promise<StartedSession> {
  const stable = createStablePrefix(options.system, options.tools);
  const prefix: SessionPrefix = { system: stable.system, tools: stable.tools, provider: options.provider.name, model: options.provider.model };
  const clock = options.clock ?? (() => new Date());
  if (options.id === undefined) {
    const session = await store.create({ createdAt: clock().toISOString(), ...(options.workspace ? { workspace: options.workspace } : {}), prefix });
    return { session, messages: [], resumed: false, warnings: [], prefixChanged: false };
  }
  const checked = await store.load(options.id);
  const needsRepair = checked.warnings.filter((warning) => warningsNeedingRepair.has(warning.code));
  if (needsRepair.length > 0 && options.repair !== true) {
    throw new CtxkitError(
      "session_needs_repair",
      `Session ${options.id} has ${needsRepair.length} damaged record(s): ${needsRepair.map((warning) => warning.message).join(" ")} ` +
        "Resume with `repair: true` (CLI: --repair) to continue with them left out; the file itself is not changed.",
    );
  }
  const session = await store.open(options.id);
  const loaded = session.loaded ?? checked;
  const prefixChanged =
    JSON.stringify(loaded.prefix.system) !== JSON.stringify(prefix.system) || JSON.stringify(loaded.prefix.tools) !== JSON.stringify(prefix.tools);
  if (prefixChanged) session.appendPrefix(prefix, "the system prompt or tools changed when the session was resumed");
  return { session, messages: [...loaded.messages], resumed: true, warnings: [...session.warnings], prefixChanged };
}
