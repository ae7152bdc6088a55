import { buildModelRequest } from "../context/build-model-request.js";
import { hashBody } from "../context/prefix-guard/prefix-guard.js";
import { providerDefaultEffort, type SerializedRequest } from "../providers/provider.js";
import { CtxkitError, type GenerationSettings, type Message, type SystemPrompt, type ToolDefinition, type UserMessage, SessionError } from "../types/index.js";
import type { LoadedSession } from "./loaded-session.js";
import { firstChecksumVersion } from "./record-checksum.js";

/** The parts of one model call, as recorded: enough to rebuild its wire body byte for byte. */
export interface RebuiltRequest {
  system: SystemPrompt;
  tools: ToolDefinition[];
  messages: Message[];
  tail: UserMessage | undefined;
  provider: string;
  model: string;
  /** The hash of the body as it was sent (sessions of format 3 on). */
  bodyHash?: string;
  /** The reasoning effort it was sent with, when recorded (a chat's /effort may differ from the setting). */
  effort?: string;
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
    ...(request.bodyHash ? { bodyHash: request.bodyHash } : {}),
    ...(request.effort ? { effort: request.effort } : {}),
  };
}

/**
 * Serialises a rebuilt request with `provider` (and the generation settings it was sent with) and
 * checks the bytes against the hash recorded when it was sent. Throws `session_body_mismatch` when
 * they differ: the provider's code now writes other bytes for the same messages, so a resumed session
 * would not extend its cached prefix. Returns the body. A request recorded without a hash (format
 * 1 and 2) cannot be checked and is returned as rebuilt.
 */
export function verifyRebuiltRequest(
  rebuilt: RebuiltRequest,
  provider: { serialize(request: ReturnType<typeof buildModelRequest>): SerializedRequest },
  settings: GenerationSettings = {},
  file?: Pick<LoadedSession, "path" | "header" | "warnings">,
): SerializedRequest {
  // The recorded effort goes over the provider's, as it did when sent; the provider's own default is no request setting.
  const effort = rebuilt.effort !== undefined && rebuilt.effort !== providerDefaultEffort ? { reasoningEffort: rebuilt.effort } : {};
  const request = buildModelRequest({ prefix: { system: rebuilt.system, tools: rebuilt.tools }, trajectory: rebuilt.messages, ...(rebuilt.tail ? { tail: rebuilt.tail } : {}), settings: { ...settings, ...effort } });
  const serialized = provider.serialize(request);
  if (rebuilt.bodyHash !== undefined && hashBody(serialized.body) !== rebuilt.bodyHash) {
    throw new CtxkitError("session_body_mismatch", `The request rebuilt from the session serialises to other bytes than were sent (${rebuilt.provider}, ${rebuilt.model}): ${mismatchCause(file)}`);
  }
  return serialized;
}

/**
 * Why the bytes differ, as far as the file can tell: an edit the loader found (a checksum or a
 * cross-check), or — when every record is sealed and intact — the provider or the settings.
 */
function mismatchCause(file: Pick<LoadedSession, "path" | "header" | "warnings"> | undefined): string {
  const edits = (file?.warnings ?? []).filter((warning) => warning.code === "record_edited" || warning.code === "records_disagree");
  if (file !== undefined && edits.length > 0) {
    const lines = [...new Set(edits.map((warning) => warning.line))].slice(0, 5).join(", ");
    return (
      `the session file ${file.path} was edited after it was written (line${edits.length === 1 ? "" : "s"} ${lines}: ${edits[0]!.message}). ` +
      "Restore the file from a copy, start a new session, or resume with `verifyBody: false` to continue from the edited file with one full-price call."
    );
  }
  const unsealed = file !== undefined && file.header.version < firstChecksumVersion ? ` (or the file was edited: format ${file.header.version} files carry no checksums to tell)` : "";
  return (
    `the provider's code or the generation settings changed since${unsealed}, so resuming would re-send the whole prompt uncached. ` +
    "Start a new session, pass the settings the session was recorded with, or resume with `verifyBody: false` to accept one full-price call."
  );
}
