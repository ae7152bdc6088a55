import { recordedCalls, type RecordedCall } from "./session-spend.js";
import { createStablePrefix } from "../context/stable-prefix.js";
import type { SerializedRequest } from "../providers/provider.js";
import { CtxkitError, type GenerationSettings, type Message, type ModelRequest, type RecordedCacheCall, type SystemPrompt, type ToolDefinition } from "../types/index.js";
import { rebuildRequest, verifyRebuiltRequest } from "./rebuild-request.js";
import type { SessionPrefix } from "./session-records.js";
import type { SessionStore } from "./session-store.js";
import { warningsNeedingRepair, type LoadedSession, type SessionWarning } from "./loaded-session.js";
import { loadForResume } from "./reorder-on-resume.js";
import type { SessionWriter } from "./session-writer.js";

export interface StartSessionOptions {
  /** Resume this session when given; otherwise a new one is created. */
  id?: string;
  system: string | SystemPrompt;
  /**
   * Where context policies' sections begin in `system`'s session part (`policySectionsStart`):
   * recorded with the prefix, so a resume can take them off without reading the text.
   */
  policySectionsAt?: number;
  tools: readonly ToolDefinition[];
  /** The provider (its `serialize` lets a resume verify the recorded bodies), or just its name and model. */
  provider: { name: string; model: string; serialize?: (request: ModelRequest) => SerializedRequest };
  /** The generation settings the agent sends with (part of the wire body the recorded hashes cover). */
  settings?: GenerationSettings;
  /**
   * On resume, check that the last recorded request still serialises to the bytes that were sent
   * (default true when the provider can serialise); a mismatch throws `session_body_mismatch`.
   */
  verifyBody?: boolean;
  workspace?: string;
  clock?: () => Date;
  /**
   * Resume even when the loader found duplicated message lines, stray usage records or records out of
   * order (a request line before the messages it sent…): the file is rewritten without the duplicates,
   * in an order the loader accepts (the original kept beside it as `<file>.before-repair`, reported in
   * a `session_repaired` warning) and the agent continues from the same context. Without it such a
   * resume throws `session_needs_repair`, so nothing is continued from a context the user has not seen.
   */
  repair?: boolean;
}

export interface StartedSession {
  session: SessionWriter;
  /** The stored trajectory to continue from (empty for a new session). Pass it to `createAgent`. */
  messages: Message[];
  /** Every message the session recorded, including ones compaction replaced: `createAgent({ messageLog })`. */
  log: Message[];
  resumed: boolean;
  /** Torn or unterminated last lines found (and repaired) while opening, and a consented repair (`session_repaired`). */
  warnings: SessionWarning[];
  /** Set when the resumed session was recorded with a different system prompt or tools. */
  prefixChanged: boolean;
  /** The model calls the session recorded (empty for a new one): `sessionSpend(calls)` is what a budget continues from. */
  calls: RecordedCall[];
  /**
   * The resumed session's last model call that reported usage (absent for a new session or none):
   * pass it as `createAgent({ runtime: { previousCall } })` so the first call's cache miss is named.
   */
  lastCall?: RecordedCacheCall;
}

/**
 * Creates a session, or resumes one so the agent continues with the same bytes: the stored
 * messages are returned as they were sent, and a changed system prompt or tool set is recorded
 * as a declared prefix change (a cache break the caller caused) rather than hidden.
 */
export async function startSession(store: SessionStore, options: StartSessionOptions): Promise<StartedSession> {
  const stable = createStablePrefix(options.system, options.tools);
  const prefix: SessionPrefix = {
    system: stable.system,
    tools: stable.tools,
    provider: options.provider.name,
    model: options.provider.model,
    ...(options.policySectionsAt === undefined ? {} : { policySectionsAt: options.policySectionsAt }),
  };
  const clock = options.clock ?? (() => new Date());
  if (options.id === undefined) {
    const session = await store.create({ createdAt: clock().toISOString(), ...(options.workspace ? { workspace: options.workspace } : {}), prefix });
    return { session, messages: [], log: [], resumed: false, warnings: [], prefixChanged: false, calls: [] };
  }
  const { loaded: firstLoad, reordered } = await loadForResume(store, options.id, options.repair === true);
  let checked = firstLoad;
  const needsRepair = checked.warnings.filter((warning) => warningsNeedingRepair.has(warning.code));
  let repaired: SessionWarning | undefined;
  if (needsRepair.length > 0) {
    if (options.repair !== true) {
      throw new CtxkitError(
        "session_needs_repair",
        `Session ${options.id} has ${needsRepair.length} damaged record(s): ${needsRepair.map((warning) => warning.message).join(" ")} ` +
          "Resume with `repair: true` (CLI: --repair) to rewrite the file without them (the original is kept beside it); until then the file is not changed.",
      );
    }
    const repair = await store.repair(options.id, needsRepair.map((warning) => warning.line));
    checked = await store.load(options.id);
    const left = checked.warnings.filter((warning) => warningsNeedingRepair.has(warning.code));
    if (left.length > 0) throw new CtxkitError("session_repair_failed", `Session ${options.id} still has damaged records after its repair: ${left.map((warning) => warning.message).join(" ")} The original is at ${repair.backupPath}.`);
    repaired = {
      code: "session_repaired",
      line: 0,
      removedLines: repair.removedLines,
      backupPath: repair.backupPath,
      message: `Repaired: line${repair.removedLines.length === 1 ? "" : "s"} ${repair.removedLines.join(", ")} left out of the session file (${needsRepair.map((warning) => warning.code).join(", ")}); the original is kept at ${repair.backupPath}.`,
    };
  }
  const session = await store.open(options.id);
  const loaded = session.loaded ?? checked;
  const last = loaded.requests.at(-1);
  const serialize = options.provider.serialize;
  // Only a request sent with the same provider and model can be compared byte for byte.
  if (last?.bodyHash && serialize && options.verifyBody !== false && last.provider === options.provider.name && last.model === options.provider.model) {
    try {
      verifyRebuiltRequest(rebuildRequest(loaded, loaded.requests.length - 1), { serialize }, options.settings, loaded);
    } catch (error) {
      await session.close().catch(() => undefined);
      throw error;
    }
  }
  const prefixChanged =
    JSON.stringify(loaded.prefix.system) !== JSON.stringify(prefix.system) || JSON.stringify(loaded.prefix.tools) !== JSON.stringify(prefix.tools);
  if (prefixChanged) session.appendPrefix(prefix, "the system prompt or tools changed when the session was resumed");
  return {
    session,
    messages: [...loaded.messages],
    log: [...loaded.log],
    resumed: true,
    warnings: [...(reordered === undefined ? [] : [reordered]), ...(repaired === undefined ? [] : [repaired]), ...session.warnings],
    prefixChanged,
    calls: recordedCalls(loaded),
    ...withLastCall(lastRecordedCall(loaded)),
  };
}

/** The last request that has a usage record, with what the cache needs of both. */
export function lastRecordedCall(session: Pick<LoadedSession, "usage" | "requests">): RecordedCacheCall | undefined {
  const usage = session.usage.at(-1);
  const request = usage === undefined ? undefined : session.requests[usage.request];
  if (usage === undefined || request === undefined) return undefined;
  return {
    at: request.at,
    model: request.model,
    ...(request.effort === undefined ? {} : { effort: request.effort }),
    usage: usage.usage,
    ...(request.cacheLifetimeMs === undefined ? {} : { cacheLifetimeMs: request.cacheLifetimeMs }),
  };
}

function withLastCall(call: RecordedCacheCall | undefined): { lastCall?: RecordedCacheCall } {
  return call === undefined ? {} : { lastCall: call };
}
